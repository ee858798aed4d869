package org.jspin.nic.sim.experiment;

import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;

/**
 * A family of the sweeps behind {@link Figures}: what it shares with the others of one run (the
 * configuration, the simulator, the verdicts found so far) and the cases and host measurements the
 * families have in common.
 */
abstract class Sweeps {
    final SimConfig base;
    final boolean quick;
    final int threads;
    final SimRun sim;
    final List<Verdict> verdicts;

    Sweeps(SweepContext context) {
        this.base = context.base();
        this.quick = context.quick();
        this.threads = context.threads();
        this.sim = context.sim();
        this.verdicts = context.verdicts();
    }

    /** @return the bytes of the vector messages the vector sweeps send */
    final long vectorBytes() {
        return quick ? 256 << 10 : 4 << 20;
    }

    /** A vector of {@code block}-byte blocks at twice that stride, {@code bytes} in all. */
    static Datatype vector(long block, long bytes) {
        return block % 8 == 0 ? Datatype.vector(bytes / block, block / 8, block / 4, Datatype.DOUBLE).commit()
                : Datatype.vector(bytes / block, block, 2 * block, Datatype.BYTE).commit();
    }

    /** @return the link's line rate, in Gbit/s */
    final double lineRate() {
        return base.timing().get(TimingParam.LINE_RATE);
    }

    /** @return the warm-up before a host measurement, long enough for the JIT to compile the type's kernels */
    final long warmupMillis() {
        return quick ? 30 : 200;
    }

    /**
     * @return ns from the first byte on the link until the host path has the data in place, with the
     *         unpack measured on this machine by {@code nThreads} threads
     */
    final double measuredHostNs(Datatype t, long count, long bytes, int nThreads) {
        try (HostBaseline h = new HostBaseline(t, count, nThreads)) {
            double unpack = h.medianNs(warmupMillis(), quick ? 3 : 7);
            return SimRun.hostNs(bytes, unpack, base);
        }
    }

    /** @return the throughput of {@link #measuredHostNs}, in Gbit/s */
    final double measuredHostGbps(Datatype t, long count, long bytes, int nThreads) {
        return SimRun.gbps(bytes, measuredHostNs(t, count, bytes, nThreads));
    }
}
