package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;
import org.junit.jupiter.api.Test;

/** A handler's commands spread over its time, worked by hand on the paper's PCIe (315 B per 5,000 ps slot). */
class DmaCommandsTest {
    private static DmaCommands commands(int outstanding) {
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.DMA_OUTSTANDING, (double) outstanding));
        return new DmaCommands(new DmaRing(1, outstanding), new PcieModel(c, 0));
    }

    private static HandlerWork work(long commands, long bytes) {
        HandlerWork w = new HandlerWork();
        w.dmaCommands = commands;
        w.dmaBytes = bytes;
        return w;
    }

    @Test
    void theSecondCommandWaitsForTheFirstWithOneOutstanding() {
        DmaCommands d = commands(1);
        // two commands of 1,000 B (1,096 B on PCIe) from a 26,000 ps handler, due at 13,000 and 26,000: the first
        // is done at 32,397, so the second stalls 6,397 ps and is done at 51,794
        assertEquals(6_397, d.issue(0, 0, 26_000, work(2, 2000)));
        assertEquals(51_794, d.lastDone());
    }

    @Test
    void enoughOutstandingNeverStalls() {
        DmaCommands d = commands(4);
        assertEquals(0, d.issue(0, 0, 26_000, work(2, 2000)));
        // the second, issued at 26,000 while the first's 1,096 B still fill slots 2 to 6, takes slot 6's rest and
        // slots 7 to 9 (290 + 315 + 315 + 176 B): on the link until 45,000 + 176/315 of a slot (2,794), done
        // 2,000 ps later
        assertEquals(49_794, d.lastDone());
    }

    @Test
    void noCommandIsDoneAtTheStart() {
        DmaCommands d = commands(1);
        assertEquals(0, d.issue(0, 7_000, 26_000, new HandlerWork()));
        assertEquals(7_000, d.lastDone());
    }
}
