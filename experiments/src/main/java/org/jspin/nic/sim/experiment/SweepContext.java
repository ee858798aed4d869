package org.jspin.nic.sim.experiment;

import java.util.List;

import org.jspin.nic.sim.config.SimConfig;

/**
 * What the families of sweeps of one {@code jspin figures} run share.
 *
 * @param base     the configuration every sweep starts from
 * @param quick    fewer and smaller cases
 * @param threads  the threads of the multi-threaded host baseline
 * @param sim      the simulator, which counts the packets of every sweep
 * @param verdicts where each sweep adds its verdict, in the order the sweeps run
 */
record SweepContext(SimConfig base, boolean quick, int threads, SimRun sim, List<Verdict> verdicts) {
}
