package org.jspin.nic.sim.handler;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.sim.work.HandlerWork;

/**
 * The DMA engine as a handler sees it, bound to one packet at a time: each {@link #piece} is one DMA
 * command that moves a contiguous piece between the packet (NIC memory) and host memory, the next
 * piece of the packet's payload in order. Inbound (a payload handler) it writes host memory; outbound
 * it reads it. Real bytes move; the command and its bytes are counted.
 *
 * <p>Each command also counts the host cache lines (64 B) it covers whole and in part: a DMA write
 * that covers part of a line costs the memory a read-modify-write of it.
 *
 * <p>The host offsets come from the receive's (or send's) type map, which the cursor checked against
 * the buffer when the operation was made, so a piece never lands outside the type map.
 */
public final class Dma {
    /** Host cache line: what partial DMA writes cost a read-modify-write of. */
    private static final long LINE = 64;

    private final boolean write;
    private final MemorySegment host;
    private final long origin;
    /** The host address of the buffer's byte 0 (0 for a heap array, taken as line-aligned). */
    private final long base;
    private MemorySegment packet;
    private long at;

    /**
     * @param write  true for DMA writes into host memory (inbound), false for reads (outbound)
     * @param host   the user's buffer
     * @param origin the buffer byte that is the datatype's displacement 0
     */
    public Dma(boolean write, MemorySegment host, long origin) {
        this.write = write;
        this.host = host;
        this.origin = origin;
        this.base = host.isNative() ? host.address() : 0;
    }

    /** Binds the packet whose payload starts at {@code offset} of {@code packet}. */
    public void bind(MemorySegment packet, long offset) {
        this.packet = packet;
        this.at = offset;
    }

    /**
     * Moves the next {@code length} bytes of the packet's payload to (or from) the host at
     * {@code typedOffset} from the datatype's origin.
     */
    public void piece(long typedOffset, long length, HandlerWork work) {
        if (write) {
            MemorySegment.copy(packet, at, host, origin + typedOffset, length);
        } else {
            MemorySegment.copy(host, origin + typedOffset, packet, at, length);
        }
        at += length;
        work.dmaCommands++;
        work.dmaBytes += length;
        long first = base + origin + typedOffset;
        long end = first + length;
        long firstLine = first / LINE;
        long lastLine = (end - 1) / LINE;
        boolean headCut = first % LINE != 0;
        boolean tailCut = end % LINE != 0;
        long partial = firstLine == lastLine ? (headCut || tailCut ? 1 : 0) : (headCut ? 1 : 0) + (tailCut ? 1 : 0);
        work.partialLines += partial;
        work.fullLines += lastLine - firstLine + 1 - partial;
    }
}
