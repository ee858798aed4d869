package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;
import org.junit.jupiter.api.Test;

/** The timed scheduler runs the handlers on the message's clock and records its timing at completion. */
class TimedSchedulerTest {
    @Test
    void oneTwoKibPacketOnOneHpu() {
        Datatype type = Datatype.contiguous(2048, Datatype.BYTE).commit();
        SimConfig config = SimConfig.DEFAULT.withHpus(1);
        HandlerWork header = new HandlerWork();
        header.blocks = 1; // 8 cycles more than handler-base, and one access: 35,000 ps
        TimedScheduler s = new TimedScheduler(config, MessageShape.of(type, 1), header);
        List<String> runs = new ArrayList<>();
        HandlerScheduler.Runner runner = (slot, hpu, work) -> runs.add(slot + "@" + hpu);
        MessageWork totals = new MessageWork(true);
        totals.bytes = 2048;
        // arrived 181,920, matched 281,920; the header handler until 316,920, the payload handler until 342,920
        s.arrive(0, 2048, -1, runner);
        s.drain(runner);
        assertEquals(List.of("0@0"), runs);
        assertNull(totals.timing, "recorded at completion");
        s.complete(runner, totals);
        assertNotNull(totals.timing);
        assertEquals(368_920, totals.timing.completionPs());
        assertEquals(181_920, totals.timing.firstArrivalPs());
        assertEquals(35_000 + 26_000 + 26_000, totals.timing.handlerBusyPs());
        assertEquals(100_000, totals.timing.linkLatencyPs());
        assertEquals(2048, totals.timing.bytes());
        assertEquals(0, totals.dmaQueueSamples.length, "no DMA: no samples");
    }

    @Test
    void wastedBytesAndNacksDelayTheNextPacket() {
        Datatype type = Datatype.contiguous(4096, Datatype.BYTE).commit();
        TimedScheduler s = new TimedScheduler(SimConfig.DEFAULT.withHpus(1), MessageShape.of(type, 1), new HandlerWork());
        HandlerScheduler.Runner runner = (slot, hpu, work) -> { };
        MessageWork totals = new MessageWork(true);
        s.wasted(2048);
        s.nack();
        // arrives after the wasted copy and the packet (4,096 B: 163,840 ps), the latency and a round trip
        s.arrive(0, 2048, -1, runner);
        s.complete(runner, totals);
        assertEquals(100_000 + 200_000 + 163_840, totals.timing.firstArrivalPs());
    }
}
