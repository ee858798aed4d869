package org.jspin.nic.sim.strategy;

import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code rw-cp}: progressing checkpoints. The message is cut into blocks of Δr bytes, one virtual HPU
 * (vHPU) each; a blocked round-robin scheduler gives every packet of block j to vHPU j, which runs on
 * HPU {@code j mod P}. vHPU j's segment starts at j·Δr (copied from the read-only checkpoint when the
 * receive starts) and is advanced in place by each packet, so in order there is neither catch-up nor
 * copy. A packet that finds its vHPU's segment already past it (out-of-order delivery) forces a
 * reset: the checkpoint is copied again and the segment walks forward from it.
 *
 * <p>NIC memory holds both the read-only checkpoints (to reset from) and the progressing ones.
 */
public final class RwCp extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "rw-cp";

    private final Checkpoint[] checkpoints;
    private final NicSegment[] vhpus;
    private final long deltaR;

    /** @param setup counts the copies of the checkpoints into the vHPUs' segments */
    RwCp(MessageShape shape, Checkpoint[] checkpoints, long deltaR, HandlerWork setup) {
        super(RW_CP, NAME, shape, nicBytes(shape, deltaR));
        this.checkpoints = checkpoints;
        this.deltaR = deltaR;
        this.vhpus = new NicSegment[checkpoints.length];
        for (int j = 0; j < vhpus.length; j++) {
            vhpus[j] = new NicSegment(shape);
            vhpus[j].load(checkpoints[j], setup);
        }
    }

    static long nicBytes(MessageShape shape, long deltaR) {
        return Description.bytes(shape.message(), false)
                + 2 * Checkpoints.count(shape, deltaR) * NicSegment.stateBytes(shape.depth());
    }

    @Override
    public boolean fixedHpu() {
        return true;
    }

    @Override
    public int hpuFor(long arrival, long offset, int hpus) {
        return (int) ((offset / deltaR) % hpus);
    }

    void handle(long offset, int length, Dma dma, HandlerWork work) {
        int j = (int) (offset / deltaR);
        NicSegment s = vhpus[j];
        if (s.position() > offset) {
            s.load(checkpoints[j], work);
            work.resets++;
        }
        s.walkTo(offset, work);
        s.emit(length, dma, work);
    }
}
