package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;
import org.junit.jupiter.api.Test;

/**
 * Small sends on the paper's preset, times worked by hand: 5 ps a bit on the link (81,920 ps a 2 KiB
 * packet), and a handler that does nothing beyond {@code handler-base} (26 cycles at 1 GHz: 26,000 ps).
 * The link latency is not the sender's.
 */
class SendTimelineTest {
    private static final HandlerWork NOTHING = new HandlerWork();

    @Test
    void threePacketsOnTwoHpus() {
        SendTimeline t = new SendTimeline(TimingConfig.PAPER, 2);
        // packet 0 on HPU 0 from 0 to 26,000, then on the link until 107,920
        assertEquals(107_920, t.packet(0, 2048, NOTHING));
        // packet 1 on HPU 1, gathered by 26,000 too, waits for the link until 107,920
        assertEquals(189_840, t.packet(1, 2048, NOTHING));
        // packet 2 on HPU 0 from 26,000 to 52,000, waits for the link until 189,840
        assertEquals(271_760, t.packet(0, 2048, NOTHING));
        assertEquals(271_760, t.lastBytePs());
        assertEquals(3 * 81_920, t.lineRatePs());
        assertEquals(26_000, t.delayPs(), "only the first handler is not hidden behind the link");
        assertEquals(3 * 26_000, t.busyPs());
        assertEquals(3, t.packets());
    }

    @Test
    void slowHandlersOnOneHpuHoldTheLinkBack() {
        // 300-cycle handlers: each packet leaves when its handler ends, 300,000 ps apart
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.HANDLER_BASE, 300.0));
        SendTimeline t = new SendTimeline(c, 1);
        assertEquals(381_920, t.packet(0, 2048, NOTHING));
        assertEquals(681_920, t.packet(0, 2048, NOTHING));
        assertEquals(681_920 - 2 * 81_920, t.delayPs());
    }

    @Test
    void aPacketLeavesWhenItsDmaReadsAreIn() {
        // dma-outstanding 1; the handler issues two reads of 1,000 B, at 13,000 and 26,000 ps into its run.
        // A read of 1,000 B is 4 requests: 1,096 B on PCIe at 315 B per 5,000 ps slot, then 2,000 ps latency.
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.DMA_OUTSTANDING, 1.0));
        SendTimeline t = new SendTimeline(c, 1);
        HandlerWork w = new HandlerWork();
        w.dmaCommands = 2;
        w.dmaBytes = 2000;
        // read 1 at 13,000: 126 B in what is left of slot 2, 3 whole slots, 25 B of slot 6: in by 30,397, done
        // 32,397. Read 2, due at 26,000, stalls until 32,397 (6,397 ps): 163.989 B in the rest of slot 6, 2
        // whole slots, 302.011 B of slot 9: in by 49,794, done 51,794. The handler ends at 32,397; the packet
        // leaves at 51,794 and takes 80,000 ps.
        assertEquals(131_794, t.packet(0, 2000, w));
        assertEquals(6_397, t.dmaStallPs());
        assertEquals(26_000 + 6_397, t.busyPs());
        assertEquals(51_794, t.delayPs());
    }

    @Test
    void aFullPacketBufferHoldsTheNextHandler() {
        // a buffer of one 4 KiB packet (163,840 ps on the link): packet 1 cannot be gathered until packet 0 left
        TimingConfig c = TimingConfig.PAPER.with(Map.of(TimingParam.PACKET_BUFFER, 4096.0));
        SendTimeline t = new SendTimeline(c, 2);
        assertEquals(189_840, t.packet(0, 4096, NOTHING));
        // HPU 1 is free at 0 but the handler starts at 189,840, ends 215,840, and its packet leaves then
        assertEquals(379_680, t.packet(1, 4096, NOTHING));
        assertEquals(189_840, t.bufferWaitPs());
        assertEquals(379_680 - 2 * 163_840, t.delayPs());
    }

    @Test
    void nothingSentIsNoDelay() {
        SendTimeline t = new SendTimeline(TimingConfig.PAPER, 4);
        assertEquals(0, t.lastBytePs());
        assertEquals(0, t.delayPs());
        assertTrue(t.packets() == 0);
    }

    @Test
    void anHpuOutsideTheNicIsRefused() {
        SendTimeline t = new SendTimeline(TimingConfig.PAPER, 2);
        MpiException e = assertThrows(MpiException.class, () -> t.packet(2, 2048, NOTHING));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("got 2"), e.getMessage());
        assertEquals(ErrorClass.ERR_ARG,
                assertThrows(MpiException.class, () -> new SendTimeline(TimingConfig.PAPER, 0)).errorClass());
    }
}
