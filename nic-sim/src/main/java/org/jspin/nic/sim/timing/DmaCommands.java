package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.work.HandlerWork;

/**
 * A handler's DMA commands on their way: issued evenly over the handler's time, each through its HPU's
 * outstanding limit ({@link DmaRing}) into the PCIe model ({@link PcieModel}), which the inbound and the
 * outbound timelines share so that both charge a command alike.
 */
final class DmaCommands {
    private final DmaRing ring;
    private final PcieModel pcie;
    private long lastDone;

    DmaCommands(DmaRing ring, PcieModel pcie) {
        this.ring = ring;
        this.pcie = pcie;
    }

    /**
     * Issues the {@code w.dmaCommands} commands of {@code w.dmaBytes} (split evenly, the rest on the last)
     * of a handler on {@code hpu} that runs from {@code start} for {@code duration} without stalls.
     *
     * @return how long the HPU stalled on its outstanding limit
     */
    long issue(int hpu, long start, long duration, HandlerWork w) {
        long stall = 0;
        lastDone = start;
        long n = w.dmaCommands;
        if (n > 0) {
            long each = w.dmaBytes / n;
            long rest = w.dmaBytes - each * n;
            for (long j = 0; j < n; j++) {
                long want = start + stall + (duration * (j + 1)) / n;
                long issue = ring.issue(hpu, want);
                stall += issue - want;
                long done = pcie.write(issue, each + (j == n - 1 ? rest : 0));
                ring.inFlight(hpu, done);
                lastDone = Math.max(lastDone, done);
            }
        }
        return stall;
    }

    /** @return when the last command of the handler just issued completed (its start if it issued none) */
    long lastDone() {
        return lastDone;
    }
}
