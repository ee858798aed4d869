package org.jspin.nic.sim.strategy;

import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * The per-message state of a datatype strategy and what its payload handler does with one packet:
 * find where the packet's bytes belong and emit one DMA command per contiguous piece. One final class
 * per strategy; {@link #payload} dispatches on {@link #kind} with a switch, so the handler's call site
 * stays monomorphic however many strategies a process uses.
 */
public abstract sealed class PayloadStrategy permits Specialized, HpuLocal, RoCp, RwCp, Iovec, Seek {
    static final int SPECIALIZED = 0;
    static final int HPU_LOCAL = 1;
    static final int RO_CP = 2;
    static final int RW_CP = 3;
    static final int IOVEC = 4;
    static final int SEEK = 5;

    private final int kind;
    private final String name;
    private final long nicBytes;
    /** The message the state is for. */
    protected final MessageShape shape;

    PayloadStrategy(int kind, String name, MessageShape shape, long nicBytes) {
        this.kind = kind;
        this.name = name;
        this.shape = shape;
        this.nicBytes = nicBytes;
    }

    /** @return the strategy's name */
    public final String name() {
        return name;
    }

    /** @return bytes of NIC memory the message's description and this state take */
    public final long nicBytes() {
        return nicBytes;
    }

    /**
     * @return whether the strategy fixes each packet's HPU ({@link #hpuFor}); otherwise a packet runs on
     *         whichever HPU the NIC's scheduler finds free
     */
    public boolean fixedHpu() {
        return false;
    }

    /**
     * @param arrival the packet's place in the message's arrival order (0 for the first to arrive)
     * @param offset  the packet's first byte in the message
     * @return the HPU the packet's handler runs on: round robin in arrival order, unless the strategy
     *         schedules otherwise ({@code rw-cp}'s blocked round robin)
     */
    public int hpuFor(long arrival, long offset, int hpus) {
        return (int) (arrival % hpus);
    }

    /**
     * The payload handler: emits bytes {@code [offset, offset + length)} of the message through
     * {@code dma} (bound to the packet), counting what it did in {@code work}.
     */
    public final void payload(int hpu, long offset, int length, Dma dma, HandlerWork work) {
        switch (kind) {
            case SPECIALIZED -> ((Specialized) this).handle(offset, length, dma, work);
            case HPU_LOCAL -> ((HpuLocal) this).handle(hpu, offset, length, dma, work);
            case RO_CP -> ((RoCp) this).handle(hpu, offset, length, dma, work);
            case RW_CP -> ((RwCp) this).handle(offset, length, dma, work);
            case IOVEC -> ((Iovec) this).handle(offset, length, dma, work);
            default -> ((Seek) this).handle(hpu, offset, length, dma, work);
        }
    }
}
