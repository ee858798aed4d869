package org.jspin.nic.sim.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.nic.sim.config.SimConfig;

/** A quick run's shared state on the default (paper) configuration, for the tests of one family of sweeps. */
final class QuickSweeps implements AutoCloseable {
    final SimRun sim = new SimRun();
    final List<Verdict> verdicts = new ArrayList<>();
    final SweepContext context;

    QuickSweeps(boolean quick) {
        context = new SweepContext(SimConfig.DEFAULT, quick, 2, sim, verdicts);
    }

    QuickSweeps() {
        this(true);
    }

    /** @return {@code ../shared/layouts}, as the build passes it ({@code -Djspin.shared}) */
    static Path layouts() {
        String shared = System.getProperty("jspin.shared");
        if (shared == null) {
            throw new IllegalStateException("set -Djspin.shared=/path/to/shared");
        }
        return Path.of(shared, "layouts");
    }

    /** @return the one verdict the sweep added */
    Verdict onlyVerdict() {
        if (verdicts.size() != 1) {
            throw new AssertionError("expected one verdict, got " + verdicts);
        }
        return verdicts.getFirst();
    }

    @Override
    public void close() {
        sim.close();
    }
}
