package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * A handler's cost from what it did ({@link HandlerWork}): compute cycles at the HPU clock, and the NIC
 * memory accesses it made, which {@link NicMemoryModel} times.
 *
 * <p>Cycles: a fixed {@code handler-base}, plus {@code block} per piece emitted, {@code walk} per block
 * passed over catching up, {@code level} per dataloop level entered, {@code division} per division
 * and {@code search-step} per binary search probe. Memory accesses (8 bytes each): one load of the
 * dataloop entry per block emitted or passed over, one per search probe, and a load and a store per 8
 * bytes of segment state copied.
 */
public final class CostModel {
    private final double psPerCycle;
    private final double base;
    private final double block;
    private final double walk;
    private final double level;
    private final double division;
    private final double searchStep;

    public CostModel(TimingConfig t) {
        this.psPerCycle = 1000.0 / t.get(TimingParam.HPU_CLOCK);
        this.base = t.get(TimingParam.HANDLER_BASE);
        this.block = t.get(TimingParam.BLOCK);
        this.walk = t.get(TimingParam.WALK);
        this.level = t.get(TimingParam.LEVEL);
        this.division = t.get(TimingParam.DIVISION);
        this.searchStep = t.get(TimingParam.SEARCH_STEP);
    }

    /** @return picoseconds of one HPU cycle */
    public double psPerCycle() {
        return psPerCycle;
    }

    /** @return compute time of a handler that did {@code w}, in ps (memory accesses not included) */
    public long computePs(HandlerWork w) {
        double cycles = base + w.blocks * block + w.catchUpBlocks * walk + w.levels * level + w.divisions * division
                + w.searchSteps * searchStep;
        return Math.round(cycles * psPerCycle);
    }

    /** @return NIC memory accesses of a handler that did {@code w} */
    public static long accesses(HandlerWork w) {
        return w.blocks + w.catchUpBlocks + w.searchSteps + 2 * ((w.checkpointBytes + 7) / 8);
    }

    /** @return compute cycles of a payload handler that emits {@code blocks} pieces and does nothing else */
    public double cyclesFor(double blocks) {
        return base + blocks * block;
    }
}
