package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.NicSegment;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The counters against values worked by hand. The message: a vector of 4096 blocks of 64 B (8
 * doubles) at a stride of 128 B, 256 KiB in all: one chunk of the fabric, 128 NIC packets of 2 KiB,
 * 32 whole blocks each; Δr of 16 packets (32 KiB), so 8 checkpoints.
 */
class HandCountedWorkTest {
    private static final Datatype VECTOR = Datatype.vector(4096, 8, 16, Datatype.DOUBLE).commit();
    private static final int PACKETS = 128;
    private static final int BLOCKS = 4096;
    private static final int PER_PACKET = 32;
    private static final long DELTA_R = 16 * 2048;

    private static WorkLog run(SimConfig config) {
        WorkLog log = new WorkLog();
        OneMessage.Result r = OneMessage.run(VECTOR, 1, config, OneMessage.DEFAULT_CHUNK, log, true);
        assertTrue(r.identical(), "exact");
        return log;
    }

    private static MessageWork receive(WorkLog log) {
        assertEquals(1, log.messages.size());
        return log.messages.getFirst();
    }

    @Test
    void specializedWrites32BlocksPerPacketWithOneDivisionEach() {
        WorkLog log = run(SimConfig.DEFAULT.withStrategy("specialized"));
        assertEquals(PACKETS, log.of(HandlerKind.PAYLOAD).size());
        for (WorkLog.Entry e : log.of(HandlerKind.PAYLOAD)) {
            assertEquals(PER_PACKET, e.dmaCommands(), "32 DMA writes in packet " + e.packet());
            assertEquals(2048, e.dmaBytes());
            assertEquals(1, e.divisions(), "one vector level");
            assertEquals(0, e.catchUp());
        }
        MessageWork m = receive(log);
        assertEquals(BLOCKS, m.dmaWrites);
        assertEquals(1, m.headerHandlers);
        assertEquals(1, m.completionHandlers);
        assertEquals(PACKETS, m.packets);
        assertEquals(0, m.checkpointsMade);
        assertEquals(16 + 24, m.nicMemoryBytes, "one level and the leaf");
        assertEquals(HandlerKind.HEADER, log.handlers.getFirst().kind());
        assertEquals(HandlerKind.COMPLETION, log.handlers.getLast().kind());
    }

    /**
     * Round robin in order: HPU h first catches up over the h packets before its first one, then over
     * the P - 1 packets the others took before each of its next ones, 32 blocks a packet:
     * 32 · [P(P-1)/2 + (P-1)(128-P)] blocks in all.
     */
    @ParameterizedTest(name = "P = {0}")
    @ValueSource(ints = {1, 2, 4, 8, 32, 64})
    void hpuLocalCatchUpGrowsWithTheHpus(int p) {
        MessageWork m = receive(run(SimConfig.DEFAULT.withStrategy("hpu-local").withHpus(p)));
        long expected = (long) PER_PACKET * ((long) p * (p - 1) / 2 + (long) (p - 1) * (PACKETS - p));
        assertEquals(expected, m.catchUpBlocks);
        assertEquals(BLOCKS, m.blocksWalked, "every block written once");
        assertEquals(0, m.resets, "in order no segment goes back");
    }

    @Test
    void rwCpInOrderWalksEachBlockOnceWithoutCatchUpOrCopies() {
        WorkLog log = run(SimConfig.DEFAULT.withStrategy("rw-cp").withDeltaR(DELTA_R));
        MessageWork m = receive(log);
        assertEquals(BLOCKS, m.blocksWalked);
        assertEquals(0, m.catchUpBlocks);
        assertEquals(0, m.resets);
        assertEquals(8, m.checkpointsMade, "256 KiB / 32 KiB");
        assertEquals(0, m.checkpointsReused);
        assertEquals(8 * NicSegment.stateBytes(1), m.checkpointBytesCopied, "only the vHPUs' start, in the header handler");
        for (WorkLog.Entry e : log.of(HandlerKind.PAYLOAD)) {
            assertEquals(0, e.checkpointBytes(), "no copy per packet");
            assertEquals((e.offset() / (16 * 2048)) % 32, e.hpu(), "blocked round robin: vHPU j on HPU j mod P");
        }
    }

    @Test
    void rwCpOutOfOrderResetsAndCatchesUpYetStaysExact() {
        MessageWork m = receive(run(SimConfig.DEFAULT.withStrategy("rw-cp").withDeltaR(DELTA_R).withOutOfOrder(8, 3)));
        assertTrue(m.resets > 0, "a packet found its vHPU past it: " + m);
        assertTrue(m.catchUpBlocks > 0, m.toString());
        assertEquals(BLOCKS, m.blocksWalked);
    }

    @Test
    void roCpCopiesOneCheckpointPerPacketAndCatchesUpWithinDeltaR() {
        MessageWork m = receive(run(SimConfig.DEFAULT.withStrategy("ro-cp").withDeltaR(DELTA_R)));
        Checkpoint any = new NicSegment(org.jspin.nic.sim.strategy.MessageShape.of(VECTOR, 1)).checkpoint();
        assertEquals(PACKETS * any.stateBytes(), m.checkpointBytesCopied);
        // packet i of each 16-packet Δr block walks over the i packets before it: 8 · 32 · (0 + ... + 15)
        assertEquals(8L * PER_PACKET * 120, m.catchUpBlocks);
    }

    @Test
    void iovecFetchesEveryBatchOnceInOrder() {
        MessageWork m = receive(run(SimConfig.DEFAULT.withStrategy("iovec")));
        assertEquals(BLOCKS / 32, m.iovecRefills, "4096 entries, 32 at a time");
        assertEquals(0, m.searchSteps, "in order the pointer is already at each packet's first entry");
        assertEquals(0, m.resets);
        MessageWork small = receive(run(SimConfig.DEFAULT.withStrategy("iovec").withIovecEntries(8)));
        assertEquals(BLOCKS / 8, small.iovecRefills);
    }

    @Test
    void seekCostsOneDivisionPerPacketHere() {
        MessageWork m = receive(run(SimConfig.DEFAULT.withStrategy("seek")));
        assertEquals(PACKETS, m.divisions);
        assertEquals(0, m.searchSteps);
        assertEquals(0, m.catchUpBlocks);
    }

    @Test
    void checkpointsAreMadeOnceAndReusedByLaterReceivesOfTheSameTypeAndCount() {
        SimConfig c = SimConfig.DEFAULT.withStrategy("ro-cp").withDeltaR(DELTA_R);
        WorkLog log = new WorkLog();
        SimNic sender = new SimNic(c, WorkListener.NONE);
        SimNic receiver = new SimNic(c, log);
        for (int i = 0; i < 3; i++) {
            assertTrue(OneMessage.run(sender, receiver, VECTOR, 1, OneMessage.DEFAULT_CHUNK, true).identical());
        }
        assertEquals(8, log.messages.get(0).checkpointsMade);
        assertEquals(7 * 512, log.messages.get(0).creationBlocks, "one walk from the start to the last checkpoint, at 7 x 32 KiB");
        for (int i = 1; i < 3; i++) {
            assertEquals(0, log.messages.get(i).checkpointsMade);
            assertEquals(8, log.messages.get(i).checkpointsReused);
            assertEquals(0, log.messages.get(i).creationBlocks);
        }
    }
}
