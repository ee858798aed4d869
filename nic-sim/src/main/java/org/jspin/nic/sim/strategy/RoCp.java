package org.jspin.nic.sim.strategy;

import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code ro-cp}: read-only checkpoints of the segment every Δr bytes, made when the receive is
 * posted (and reused by later receives of the same type and count); each handler copies the nearest
 * checkpoint at or before its packet into its HPU's segment and walks from there. The catch-up is
 * bounded by Δr, at the price of a checkpoint copy per packet.
 */
public final class RoCp extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "ro-cp";

    private final Checkpoint[] checkpoints;
    private final long deltaR;
    private final HpuSegments segments;

    RoCp(MessageShape shape, Checkpoint[] checkpoints, long deltaR, int hpus) {
        super(RO_CP, NAME, shape, nicBytes(shape, deltaR, hpus));
        this.checkpoints = checkpoints;
        this.deltaR = deltaR;
        this.segments = new HpuSegments(shape, hpus);
    }

    static long nicBytes(MessageShape shape, long deltaR, int hpus) {
        return Description.bytes(shape.message(), false)
                + Checkpoints.count(shape, deltaR) * NicSegment.stateBytes(shape.depth()) + HpuSegments.bytes(shape, hpus);
    }

    void handle(int hpu, long offset, int length, Dma dma, HandlerWork work) {
        NicSegment s = segments.of(hpu);
        s.load(checkpoints[(int) (offset / deltaR)], work);
        s.walkTo(offset, work);
        s.emit(length, dma, work);
    }
}
