package org.jspin.nic.sim.strategy;

import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code hpu-local}: each HPU keeps one segment and catches up, walking block by block from where
 * it last stopped to the packet's offset; a packet that lies behind sends the segment back to the
 * start (a reset). With P HPUs in round robin each one passes over the P - 1 packets the others
 * handled, so the catch-up grows with P.
 */
public final class HpuLocal extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "hpu-local";

    private final HpuSegments segments;

    HpuLocal(MessageShape shape, int hpus) {
        super(HPU_LOCAL, NAME, shape, nicBytes(shape, hpus));
        this.segments = new HpuSegments(shape, hpus);
    }

    static long nicBytes(MessageShape shape, int hpus) {
        return Description.bytes(shape.message(), false) + HpuSegments.bytes(shape, hpus);
    }

    void handle(int hpu, long offset, int length, Dma dma, HandlerWork work) {
        NicSegment s = segments.of(hpu);
        if (s.position() > offset) {
            s.seek(0);
            work.resets++;
        }
        s.walkTo(offset, work);
        s.emit(length, dma, work);
    }
}
