package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.stream.LongStream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.testing.RandomTypes;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.LinkFaults;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.Strategies;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A link that loses, duplicates and reorders packets: every strategy, and the CPU on a fallback,
 * still leaves the receive buffer byte for byte as a lossless host path does, each packet's handler
 * runs once, each byte is written once; or, past the retransmission limit, the message fails with
 * ERR_OTHER and the NIC memory is given back. Seeded random datatypes; a failure names its seed.
 */
class LinkFaultTest {
    private static final SimConfig BIG = SimConfig.DEFAULT.withNicMemory(1L << 30);
    private static final List<String> STRATEGIES = List.of("specialized", "hpu-local", "ro-cp", "rw-cp", "iovec", "seek");
    /** Lossy enough that most messages of a few packets see a loss and a copy; never so lossy that 7 retries fail. */
    private static final LinkFaults LOSSY = LinkFaults.NONE.withDrop(0.1).withDuplicate(0.1);

    static LongStream seeds() {
        return LongStream.range(0, 150);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aLossyLinkLeavesTheExactBufferWithEveryStrategyAndOnTheCpu(long seed) {
        TypeCase c = RandomTypes.generate(seed);
        Datatype type = c.type().commit();
        long count = c.count();
        MessageShape shape = MessageShape.of(type, count);
        long bytes = type.packSize(count);
        for (String s : STRATEGIES) {
            if (Strategies.notApplicable(s, shape) != null) {
                continue;
            }
            String label = "seed " + seed + ", " + s + ": " + c;
            SimConfig clean = BIG.withStrategy(s).withOutOfOrder(8, seed);
            OneMessage.Result reference = OneMessage.run(type, count, clean, 5000, WorkListener.NONE, true);
            OneMessage.Result r = OneMessage.run(type, count, clean.withFaults(LOSSY), 5000, WorkListener.NONE, true);
            if (!r.identical()) {
                fail(label + ": receive buffer differs from the host path's at byte " + r.mismatch());
            }
            MessageWork w = r.receive();
            assertNull(w.fallback, label);
            assertEquals(reference.receive().payloadHandlers, w.payloadHandlers, label + ": one handler per packet");
            assertEquals(bytes, w.dmaWriteBytes, label + ": every byte written once");
            assertEquals(w.packetsDropped, w.retransmissions, label + ": every lost transmission sent again");
        }
        // the CPU takes it (no NIC memory at all), through the same link
        SimConfig none = SimConfig.DEFAULT.withNicMemory(0).withOutOfOrder(8, seed).withFaults(LOSSY);
        OneMessage.Result r = OneMessage.run(type, count, none, 5000, WorkListener.NONE, true);
        if (!r.identical()) {
            fail("seed " + seed + ", host fallback: receive buffer differs at byte " + r.mismatch() + ": " + c);
        }
        if (bytes > 0) {
            assertEquals("host", r.receive().strategy);
        }
        assertEquals(bytes, r.receive().cpuBytes, "seed " + seed + ": every byte unpacked once");
    }

    @Test
    void theLinkReallyLosesAndDuplicatesAndTheLedgerDiscardsTheCopies() {
        Datatype column = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit(); // 400,000 B: 196 packets
        SimConfig c = BIG.withStrategy("rw-cp").withFaults(LOSSY);
        OneMessage.Result r = OneMessage.run(column, 1, c, OneMessage.DEFAULT_CHUNK, WorkListener.NONE, true);
        assertTrue(r.identical());
        MessageWork w = r.receive();
        assertEquals(196, w.payloadHandlers);
        // 196 packets at 10 %: far from zero for any seed (the chance of none is below 1e-8)
        assertTrue(w.packetsDropped > 0 && w.duplicatesDiscarded > 0, w.toString());
        assertEquals(w.packetsDropped, w.retransmissions);
        assertEquals(196, w.packets, "handlers ran for packets, not for the losses or the copies");
    }

    @Test
    void lossesCostTimeAndTheSameSeedGivesTheSameRun() {
        Datatype column = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit();
        SimConfig clean = BIG.withStrategy("specialized");
        MessageWork lossless = OneMessage.run(column, 1, clean, OneMessage.DEFAULT_CHUNK, WorkListener.NONE, false)
                .receive();
        MessageWork a = OneMessage.run(column, 1, clean.withFaults(LOSSY), OneMessage.DEFAULT_CHUNK, WorkListener.NONE,
                false).receive();
        MessageWork b = OneMessage.run(column, 1, clean.withFaults(LOSSY), OneMessage.DEFAULT_CHUNK, WorkListener.NONE,
                false).receive();
        assertEquals(0, lossless.packetsDropped + lossless.duplicatesDiscarded + lossless.retransmissions);
        assertNotNull(a.timing);
        assertTrue(a.timing.completionPs() > lossless.timing.completionPs(),
                "resent packets arrive a NACK round trip later: " + a.timing.completionPs() + " vs "
                        + lossless.timing.completionPs());
        assertEquals(a.toMap(), b.toMap(), "deterministic for a seed");
        MessageWork other = OneMessage.run(column, 1, clean.withFaults(LOSSY).withOutOfOrder(1, 99),
                OneMessage.DEFAULT_CHUNK, WorkListener.NONE, false).receive();
        assertTrue(other.packetsDropped != a.packetsDropped || other.duplicatesDiscarded != a.duplicatesDiscarded
                || other.timing.completionPs() != a.timing.completionPs(), "another seed, other faults");
    }

    @Test
    void aPacketLostMoreOftenThanTheLinkRetransmitsFailsTheMessageClearlyAndFreesTheNicMemory() {
        Datatype column = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit();
        SimConfig c = BIG.withStrategy("rw-cp").withFaults(LinkFaults.NONE.withDrop(0.5).withRetransmits(2));
        SimNic sender = new SimNic(c, WorkListener.NONE);
        SimNic receiver = new SimNic(c, WorkListener.NONE);
        MpiException e = assertThrows(MpiException.class,
                () -> OneMessage.run(sender, receiver, column, 1, OneMessage.DEFAULT_CHUNK, true));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().matches(".*NIC packet \\d+ of the message was lost 3 times: the link gives up"
                + " after 2 retransmissions \\(drop probability 0\\.5\\)"), e.getMessage());
        assertEquals(0, receiver.memory().used(), "the failed message's NIC memory is given back");
        assertEquals(0, sender.memory().used());
        assertTrue(receiver.memory().peak() > 0);
        // the CPU path fails the same way
        SimConfig cpu = c.withNicMemory(0);
        MpiException onCpu = assertThrows(MpiException.class,
                () -> OneMessage.run(column, 1, cpu, OneMessage.DEFAULT_CHUNK, WorkListener.NONE, true));
        assertEquals(ErrorClass.ERR_OTHER, onCpu.errorClass());
    }

    @Test
    void faultsAreSetByNameAndBadValuesAreRefusedNamingThem() {
        SimConfig c = SimConfig.parse("drop=0.01,duplicate=0.2,retransmits=3,seed=5");
        assertEquals(new LinkFaults(0.01, 0.2, 3), c.faults());
        assertEquals(LinkFaults.NONE, SimConfig.DEFAULT.faults());
        assertTrue(SimConfig.DEFAULT.describe().get("retransmits").contains("InfiniBand"));
        for (String bad : List.of("drop=1", "drop=-0.1", "drop=NaN", "duplicate=1.5", "retransmits=-1",
                "retransmits=2000", "drop=lots")) {
            MpiException e = assertThrows(MpiException.class, () -> SimConfig.parse(bad), bad);
            assertEquals(ErrorClass.ERR_ARG, e.errorClass(), bad);
            String value = bad.substring(bad.indexOf('=') + 1);
            assertTrue(e.getMessage().contains(value), bad + ": " + e.getMessage());
        }
    }
}
