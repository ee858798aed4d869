package org.jspin.nic.sim.handler;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.nic.sim.schedule.LossyLink;
import org.jspin.nic.sim.schedule.PacketOrder;
import org.jspin.nic.sim.work.MessageWork;

/**
 * A received message the CPU unpacks (a fallback) while its link loses, duplicates or reorders
 * packets: each chunk is cut into NIC packets as the handlers' would be, and each packet that arrives
 * for the first time is unpacked at its own offset, the cursor repositioned as needed. Without faults
 * the CPU unpacks whole chunks instead ({@code SimNic}).
 */
public final class CpuUnpack implements LossyLink.Receiver {
    private final TypeCursor cursor;
    private final long packetBytes;
    private final PacketOrder order;
    private final LossyLink link;
    private final MessageWork work;
    private int[] arrival = new int[0];
    private long[] starts = new long[0];
    private int[] lengths = new int[0];
    private MemorySegment nic;
    private long nicBase;

    /**
     * @param cursor the receive's cursor over its buffer
     * @param work   counts the bytes copied and what the link did
     */
    public CpuUnpack(TypeCursor cursor, long packetBytes, PacketOrder order, LossyLink link, MessageWork work) {
        this.cursor = cursor;
        this.packetBytes = packetBytes;
        this.order = order;
        this.link = link;
        this.work = work;
    }

    /** Unpacks message bytes {@code [offset, offset + length)}, which lie in {@code nic} from {@code nicOffset}. */
    public void chunk(long offset, long length, MemorySegment nic, long nicOffset) {
        if (length <= 0) {
            return;
        }
        long first = offset / packetBytes;
        int n = (int) ((offset + length - 1) / packetBytes - first + 1);
        if (arrival.length < n) {
            arrival = new int[n];
            starts = new long[n];
            lengths = new int[n];
        }
        for (int i = 0; i < n; i++) {
            long k = first + i;
            starts[i] = Math.max(offset, k * packetBytes);
            lengths[i] = (int) (Math.min(offset + length, (k + 1) * packetBytes) - starts[i]);
        }
        order.arrange(arrival, n);
        this.nic = nic;
        this.nicBase = nicOffset - offset;
        try {
            link.carry(arrival, n, first, this);
        } finally {
            work.packetsDropped = link.dropped();
            work.duplicatesDiscarded = link.discarded();
            work.retransmissions = link.retransmitted();
        }
    }

    @Override
    public void arrived(int slot) {
        long start = starts[slot];
        if (cursor.position() != start) {
            cursor.seek(start);
        }
        cursor.unpack(nic, nicBase + start, lengths[slot]);
        work.cpuBytes += lengths[slot];
    }

    @Override
    public void wasted(int slot) {
        // the CPU path has no clock: a wasted transmission only counts
    }

    @Override
    public void nack() {
        // as above
    }
}
