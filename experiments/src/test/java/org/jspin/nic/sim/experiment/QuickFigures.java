package org.jspin.nic.sim.experiment;

import org.jspin.nic.sim.config.SimConfig;

/** One quick run of every figure on the paper preset, shared by the tests that read it (it traces and replays programs: seconds). */
public final class QuickFigures {
    private static Figures.Result result;

    private QuickFigures() {
    }

    /** @return the run, made by the first caller */
    public static synchronized Figures.Result result() {
        if (result == null) {
            result = new Figures(SimConfig.DEFAULT, true, QuickSweeps.layouts()).run();
        }
        return result;
    }
}
