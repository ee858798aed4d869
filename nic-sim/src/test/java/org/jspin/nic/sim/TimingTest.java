package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.timing.NicMemoryModel;
import org.jspin.nic.sim.work.MessageTiming;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;
import org.junit.jupiter.api.Test;

/** The clock on cases worked by hand. */
class TimingTest {
    /** 4 MiB of 64 B blocks at a stride of 128 B: 2048 packets of 2 KiB, 32 blocks each. */
    private static final Datatype VECTOR_64 = Datatype.vector(65536, 8, 16, Datatype.DOUBLE).commit();
    /** 4 MiB contiguous: one block per packet. */
    private static final Datatype CONTIGUOUS = Datatype.contiguous(4 << 20, Datatype.BYTE).commit();
    /** At 200 Gbit/s a 2 KiB packet arrives every 81.92 ns. */
    private static final double TPKT_NS = 81.92;

    private static MessageWork receive(Datatype t, SimConfig c) {
        OneMessage.Result r = OneMessage.run(t, 1, c, OneMessage.DEFAULT_CHUNK, WorkListener.NONE, false);
        assertTrue(r.receive().timing != null, "the clock ran");
        return r.receive();
    }

    private static double gbps(MessageWork m) {
        return m.timing.gbps();
    }

    @Test
    void aSingleHpuRunsTheHandlersOneAfterAnother() {
        MessageWork m = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("specialized").withHpus(1));
        // each payload handler: 26 + 32 x 8 cycles, one 20-cycle division (its vector level) and 32 one-cycle
        // accesses = 334 ns at 1 GHz; 2048 of them
        double handlers = 2048 * 334.0;
        double header = 26;
        double completion = m.timing.completionPs() / 1000.0;
        double start = m.timing.firstArrivalPs() / 1000.0 + 100; // the first packet, then matching
        assertEquals(start + header + handlers + 26, completion, 5, "the handlers back to back, then the completion");
        assertEquals(header + handlers + 26, m.timing.handlerBusyPs() / 1000.0, 1);
    }

    @Test
    void aSpecializedHandlerFasterThanThePacketsRunsAtLineRate() {
        MessageWork m = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("specialized"));
        // 334 ns per handler on 32 HPUs is far below 32 x 81.92 ns: the link is the limit
        assertTrue(gbps(m) > 0.98 * 200, "line rate, got " + gbps(m));
        assertTrue(gbps(m) <= 200, "never above it, got " + gbps(m));
        assertEquals(0, m.timing.dmaStallPs());
        assertEquals(0, m.timing.backpressureEvents());
    }

    @Test
    void aHandlerTwiceAsSlowAsPTimesTpktHalvesTheThroughput() {
        int p = 4;
        // one block per packet: base + 8 (the block) + 20 (a division) + 1 (an access); make the whole handler
        // 2 x 4 x 81.92 ns at 1 GHz
        double target = 2 * p * TPKT_NS;
        double base = target - 8 - 20 - 1;
        SimConfig c = SimConfig.DEFAULT.withStrategy("specialized").withHpus(p)
                .withTiming(TimingConfig.PAPER.with(Map.of(TimingParam.HANDLER_BASE, base)));
        MessageWork m = receive(CONTIGUOUS, c);
        assertEquals(100, gbps(m), 2, "half the line rate");
    }

    @Test
    void aBankConflictAddsTheBanksServiceTime() {
        // one bank of 8 GiB/s: one 8-byte access per 0.93 ns; a latency of 10 cycles at 1 GHz
        TimingConfig t = TimingConfig.PAPER.with(Map.of(TimingParam.MEMORY_BANKS, 1.0, TimingParam.MEMORY_CONTENTION,
                1.0, TimingParam.MEMORY_LATENCY, 10.0, TimingParam.MEMORY_BANDWIDTH, 8.0));
        NicMemoryModel mem = new NicMemoryModel(t, 1000);
        long service = Math.round(8 / (8.0 * (1L << 30) / 1e12));
        assertEquals(10_000, mem.access(0, 0, 1), "alone: the latency");
        assertEquals(service + 10_000, mem.access(0, 1, 1), "second at the same bank and moment: waits one service");
        NicMemoryModel free = new NicMemoryModel(TimingConfig.PAPER, 1000);
        assertEquals(1000, free.access(0, 0, 1));
        assertEquals(1000, free.access(0, 1, 1), "the paper's preset: no contention");
    }

    @Test
    void aFullDmaQueueStallsTheHandler() {
        // one packet of 32 DMA writes of 64 B, each 88 B on a 0.1 GB/s link: 880 ns apiece; with 4 in flight
        // command k > 3 waits for command k - 4, so the last is issued when the 28th completes, at about
        // 28 x 880 ns: the handler (334 ns of work) is stalled for about 24.3 us
        TimingConfig t = TimingConfig.PAPER.with(Map.of(TimingParam.PCIE_BANDWIDTH, 0.1));
        Datatype onePacket = Datatype.vector(32, 8, 16, Datatype.DOUBLE).commit();
        MessageWork m = receive(onePacket, SimConfig.DEFAULT.withStrategy("specialized").withHpus(1).withTiming(t));
        double stallUs = m.timing.dmaStallPs() / 1e6;
        assertTrue(stallUs > 23.5 && stallUs < 25, "about 24.3 us stalled, got " + stallUs);
        assertEquals(4, m.timing.dmaQueueMax(), "never more than the 4 outstanding");
    }

    @Test
    void aFullPacketBufferHoldsPacketsBackOnTheLinkAndTheBytesStayExact() {
        // one slow HPU and room for two packets: the link must wait for handlers to let packets go
        SimConfig c = SimConfig.DEFAULT.withStrategy("specialized").withHpus(1)
                .withTiming(TimingConfig.PAPER.with(Map.of(TimingParam.PACKET_BUFFER, 4096.0)));
        OneMessage.Result r = OneMessage.run(VECTOR_64, 1, c, OneMessage.DEFAULT_CHUNK, WorkListener.NONE, true);
        assertTrue(r.identical());
        assertTrue(r.receive().timing.backpressureEvents() > 2000, "nearly every packet waited: "
                + r.receive().timing.backpressureEvents());
        assertTrue(r.receive().timing.backpressurePs() > 0);
        MessageWork roomy = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("specialized").withHpus(1));
        assertEquals(r.receive().timing.completionPs(), roomy.timing.completionPs(), 0.01 * roomy.timing.completionPs(),
                "with one HPU the handlers are the limit either way");
    }

    @Test
    void deltaRIsTheLargestIntervalWithinEpsilonOfTheIdealTime() {
        // 4 MiB of 64 B blocks: npkt = 2048, Tpkt = 81.92 ns, gamma = 32 blocks, TPH = 26 + 32 x 8 cycles + 32
        // one-cycle accesses = 314 ns. P = 32: ideal = 81.92 + 64 x 314 = 20,178 ns; eps x ideal / (31 x 81.92)
        // = 1.59, so one packet. P = 4: ideal = 81.92 + 512 x 314 = 160,850 ns; 0.2 x 160,850 / (3 x 81.92) = 130.9
        MessageWork p32 = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("rw-cp"));
        assertEquals(2048, p32.deltaR);
        MessageWork p4 = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("rw-cp").withHpus(4));
        assertEquals(130L * 2048, p4.deltaR);
        MessageWork fixed = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("rw-cp").withDeltaR(8192));
        assertEquals(8192, fixed.deltaR, "an explicit delta-r wins");
    }

    @Test
    void theClockIsDeterministic() {
        SimConfig c = SimConfig.DEFAULT.withStrategy("rw-cp").withOutOfOrder(8, 5).withTiming(TimingConfig.BANKED);
        MessageTiming a = receive(VECTOR_64, c).timing;
        MessageTiming b = receive(VECTOR_64, c).timing;
        assertEquals(a, b);
    }

    @Test
    void theNicWritesEachByteOnceAndTheHostPathThreeTimesOrMore() {
        MessageWork m = receive(VECTOR_64, SimConfig.DEFAULT.withStrategy("specialized"));
        assertEquals(4 << 20, m.timing.nicTrafficBytes(), "64 B blocks on line boundaries: whole lines, once");
        assertEquals(3L * (4 << 20), m.timing.hostTrafficBytes(), "staging written and read, destination written");
        Datatype eights = Datatype.vector(4096, 1, 2, Datatype.DOUBLE).commit();
        MessageWork p = receive(eights, SimConfig.DEFAULT.withStrategy("specialized"));
        assertEquals(4096 * 128, p.timing.nicTrafficBytes(), "every 8 B write is a read-modify-write of its line");
    }
}
