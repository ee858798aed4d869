package org.jspin.nic.sim.strategy;

import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code seek} (ours; none of the paper's strategies has it): a stateless handler positions its HPU's
 * scratch segment at the packet's offset in closed form, as the datatype engine's cursor does: a
 * division per vector level and a binary search per indexed or struct level, O(depth · log n), with
 * no checkpoints and no catch-up. What it costs in NIC memory is the type's description including
 * the prefix arrays of its indexed and struct levels, which the binary searches need.
 */
public final class Seek extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "seek";

    private final HpuSegments segments;

    Seek(MessageShape shape, int hpus) {
        super(SEEK, NAME, shape, nicBytes(shape, hpus));
        this.segments = new HpuSegments(shape, hpus);
    }

    static long nicBytes(MessageShape shape, int hpus) {
        return Description.bytes(shape.message(), true) + HpuSegments.bytes(shape, hpus);
    }

    void handle(int hpu, long offset, int length, Dma dma, HandlerWork work) {
        NicSegment s = segments.of(hpu);
        SeekCost.count(shape.message(), offset, work);
        s.seek(offset);
        s.emit(length, dma, work);
    }
}
