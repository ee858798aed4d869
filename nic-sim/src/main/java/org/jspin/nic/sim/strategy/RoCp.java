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
    private final NicSegment[] segments;
    private final long nicBytes;

    RoCp(MessageShape shape, Checkpoint[] checkpoints, long deltaR, int hpus) {
        super(RO_CP, shape);
        this.checkpoints = checkpoints;
        this.deltaR = deltaR;
        this.segments = new NicSegment[hpus];
        this.nicBytes = nicBytes(shape, deltaR, hpus);
    }

    static long nicBytes(MessageShape shape, long deltaR, int hpus) {
        long state = NicSegment.stateBytes(shape.depth());
        return Description.bytes(shape.message(), false) + Checkpoints.count(shape, deltaR) * state + hpus * state;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long nicBytes() {
        return nicBytes;
    }

    void handle(int hpu, long offset, int length, Dma dma, HandlerWork work) {
        NicSegment s = segments[hpu];
        if (s == null) {
            s = new NicSegment(shape);
            segments[hpu] = s;
        }
        s.load(checkpoints[(int) (offset / deltaR)], work);
        s.walkTo(offset, work);
        s.emit(length, dma, work);
    }
}
