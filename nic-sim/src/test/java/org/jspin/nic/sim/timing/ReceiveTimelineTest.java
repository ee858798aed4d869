package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;
import org.junit.jupiter.api.Test;

/**
 * Small messages on the paper's preset, times worked by hand: 5 ps a bit on the link (81,920 ps a
 * 2 KiB packet), a link latency of 100,000 ps, matching 100,000 ps then 10,000 ps a packet, and a handler
 * that does nothing beyond {@code handler-base} (26 cycles at 1 GHz: 26,000 ps).
 */
class ReceiveTimelineTest {
    /** The handlers run, as "slot@hpu", with the work each one reports. */
    private static final class Recorder implements HandlerScheduler.Runner {
        final List<String> runs = new ArrayList<>();
        long dmaCommands;
        long dmaBytes;

        @Override
        public void run(int slot, int hpu, HandlerWork work) {
            runs.add(slot + "@" + hpu);
            work.dmaCommands = dmaCommands;
            work.dmaBytes = dmaBytes;
        }
    }

    @Test
    void threePacketsOnTwoHpus() {
        ReceiveTimeline t = new ReceiveTimeline(TimingConfig.PAPER, 2, 0);
        Recorder r = new Recorder();
        // packet 0 has arrived at 181,920, is matched at 281,920; the header handler runs on HPU 0 until 307,920
        t.arrive(0, 2048, -1, new HandlerWork(), r);
        // packet 0 then starts on HPU 0 (free again at 307,920) until 333,920; packet 1 (arrived 263,840,
        // matched 291,920) waits for the header handler and starts at 307,920 on HPU 1
        t.arrive(1, 2048, -1, new HandlerWork(), r);
        // packet 2 arrives at 345,760, is matched at 355,760: both HPUs are free, the round robin is back at 0
        t.arrive(2, 2048, -1, new HandlerWork(), r);
        assertEquals(List.of("0@0", "1@1", "2@0"), r.runs);
        assertEquals(181_920, t.firstArrival());
        // the completion handler: after packet 2's handler ends at 381,760, on HPU 1, for 26,000 ps
        assertEquals(407_760, t.complete(r));
        assertEquals(5 * 26_000, t.busyPs());
        assertEquals(0, t.schedulingWaitPs(), "the header's gate is not a wait for an HPU");
        assertEquals(0, t.backpressureEvents());
        assertEquals(0, t.dmaStallPs());
    }

    @Test
    void aFullPacketBufferHoldsTheLinkBack() {
        // one HPU, 300-cycle handlers, a buffer of one 4 KiB packet (163,840 ps on the link)
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.HANDLER_BASE, 300.0, TimingParam.PACKET_BUFFER,
                4096.0));
        ReceiveTimeline t = new ReceiveTimeline(c, 1, 0);
        Recorder r = new Recorder();
        // packet 0: arrived 263,840, matched 363,840; the header handler until 663,840, packet 0's until 963,840
        t.arrive(0, 4096, -1, new HandlerWork(), r);
        // packet 1 would arrive at 427,680 but waits on the link until packet 0 lets go at 963,840;
        // matched 973,840, handled until 1,273,840
        t.arrive(1, 4096, -1, new HandlerWork(), r);
        // packet 2 would arrive at 100,000 + 536,160 (held) + 491,520 = 1,127,680; waits until 1,273,840;
        // matched 1,283,840, handled until 1,583,840
        t.arrive(2, 4096, -1, new HandlerWork(), r);
        assertEquals(List.of("0@0", "1@0", "2@0"), r.runs);
        assertEquals(2, t.backpressureEvents());
        assertEquals(536_160 + 146_160, t.backpressurePs());
        assertEquals(1_583_840 + 300_000, t.complete(r));
        assertEquals(5 * 300_000, t.busyPs());
        assertEquals(263_840, t.firstArrival());
    }

    @Test
    void aHandlerWithItsOneDmaCommandInFlightStalls() {
        // dma-outstanding 1; the handler issues two writes of 2,000 B, at 13,000 and 26,000 ps into its run.
        // A write of 2,000 B is 8 requests: 2,192 B on PCIe at 315 B per 5,000 ps slot, then 2,000 ps latency.
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.DMA_OUTSTANDING, 1.0));
        ReceiveTimeline t = new ReceiveTimeline(c, 1, 0);
        Recorder r = new Recorder();
        r.dmaCommands = 2;
        r.dmaBytes = 4000;
        // header 281,920 to 307,920; packet 0 from 307,920. Write 1 issued at 320,920: 257.04 B in what is left
        // of slot 64, 5 whole slots, 44.96 B of slot 71: on the link until 355,714, done 357,714. Write 2, due at
        // 333,920, stalls until 357,714 (23,794 ps): 144.018 B in the rest of slot 71, 6 whole slots, 157.982 B of
        // slot 78: until 392,508, done 394,508.
        t.arrive(0, 2048, -1, new HandlerWork(), r);
        assertEquals(23_794, t.dmaStallPs());
        assertEquals(26_000 + (26_000 + 23_794), t.busyPs());
        // the completion handler waits for the last write
        assertEquals(394_508 + 26_000, t.complete(r));
    }
}
