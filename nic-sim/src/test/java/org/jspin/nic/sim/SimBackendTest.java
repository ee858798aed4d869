package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.jspin.nic.Providers;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.Strategies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code sim} backend under the shared protocol engine, ranks as threads: each kind of message
 * takes its documented path (offloaded, unexpected from the overflow buffer, fallback for lack of NIC
 * memory, truncation, signature mismatch, empty, one packet), checked on the bytes and the meters.
 */
class SimBackendTest {
    /** 50,000 doubles, every other one: 400,000 bytes, well past the eager limit (rendezvous). */
    private static final Datatype COLUMN = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit();
    private static final double[] SENT = new double[100_000];

    static {
        for (int i = 0; i < SENT.length; i++) {
            SENT[i] = i * 0.5 + 1;
        }
    }

    @AfterEach
    void forgetSettings() {
        System.clearProperty("jspin.sim");
    }

    private static double value(MeterRegistry reg, String name, int rank) {
        double v = 0;
        for (Meter m : reg.getMeters()) {
            if (m.getId().getName().equals(name) && Integer.toString(rank).equals(m.getId().getTag("rank"))) {
                v += m.measure().iterator().next().getValue();
            }
        }
        return v;
    }

    /** @return what the receiver of the column should hold: every other double sent, the rest as it was */
    private static double[] expectedColumn(double background) {
        double[] e = new double[SENT.length];
        Arrays.fill(e, background);
        for (int i = 0; i < e.length; i += 2) {
            e[i] = SENT[i];
        }
        return e;
    }

    private static MpiOptions sim(MeterRegistry reg) {
        return MpiOptions.defaults().withBackend("sim").withMeters(reg);
    }

    @Test
    void theBackendIsFoundByName() {
        assertTrue(Providers.backends().contains("sim"), Providers.backends().toString());
    }

    @Test
    void aPostedColumnIsScatteredByTheNicWithoutTheCpu() {
        MeterRegistry reg = new SimpleMeterRegistry();
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(SENT), 1, COLUMN, 1, 0);
            } else {
                double[] got = new double[SENT.length];
                Arrays.fill(got, -7);
                w.recv(MemorySegment.ofArray(got), 1, COLUMN, 0, 0);
                assertArrayEquals(expectedColumn(-7), got);
            }
        });
        assertEquals(0, value(reg, "jspin.cpu.bytes.unpacked", 1), "no CPU unpack");
        assertEquals(0, value(reg, "jspin.cpu.bytes.packed", 0), "no CPU pack: the outbound handlers gathered it");
        assertEquals(50_000, value(reg, "jspin.sim.dma.writes", 1), "one DMA write per 8-byte block");
        assertEquals(50_000, value(reg, "jspin.sim.dma.reads", 0), "one DMA read per block");
        assertEquals(400_000, value(reg, "jspin.memory.nic.written", 1));
        assertEquals(Math.ceil(400_000 / 2048.0), value(reg, "jspin.sim.handlers.payload", 1));
        assertTrue(value(reg, "jspin.sim.messages.offloaded", 1) >= 1);
        assertEquals(0, value(reg, "jspin.sim.messages.fallback", 1));
        assertEquals(0, value(reg, "jspin.sim.nic.memory.in.use", 1), "all given back");
        assertTrue(value(reg, "jspin.sim.nic.memory.peak", 1) > 0, "the column's description was held");
    }

    @Test
    void anUnexpectedEagerMessageIsUnpackedByTheCpuFromTheOverflowBuffer() {
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype small = Datatype.vector(100, 1, 2, Datatype.DOUBLE).commit(); // 800 B: eager
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(SENT), 1, small, 1, 0);
                w.barrier();
            } else {
                w.barrier(); // the message is in by now, before any receive for it
                double[] got = new double[200];
                w.recv(MemorySegment.ofArray(got), 1, small, 0, 0);
                for (int i = 0; i < 200; i++) {
                    assertEquals(i % 2 == 0 ? SENT[i] : 0, got[i], "element " + i);
                }
            }
        });
        assertEquals(1, value(reg, "jspin.sim.messages.overflow", 1));
        assertEquals(800, value(reg, "jspin.cpu.bytes.unpacked", 1), "the CPU unpacked it, as the paper says it must");
        assertEquals(0, value(reg, "jspin.sim.dma.writes", 1));
    }

    @Test
    void aReceiveWhoseStateDoesNotFitTheNicMemoryFallsBackToTheHost() {
        System.setProperty("jspin.sim", "strategy=rw-cp,nic-memory=64");
        MeterRegistry reg = new SimpleMeterRegistry();
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(SENT), 1, COLUMN, 1, 0);
            } else {
                double[] got = new double[SENT.length];
                w.recv(MemorySegment.ofArray(got), 1, COLUMN, 0, 0);
                assertArrayEquals(expectedColumn(0), got);
            }
        });
        assertEquals(1, value(reg, "jspin.sim.messages.fallback", 1), "counted, with its reason in the message's work");
        assertEquals(400_000, value(reg, "jspin.cpu.bytes.unpacked", 1));
        assertEquals(400_000, value(reg, "jspin.cpu.bytes.packed", 0), "the sender's state did not fit either");
    }

    @Test
    void aTruncatingMessageWritesOnlyWhatTheReceiveHoldsAndFailsWithErrTruncate() {
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype shortColumn = Datatype.vector(30_000, 1, 2, Datatype.DOUBLE).commit();
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(SENT), 1, COLUMN, 1, 0);
            } else {
                double[] got = new double[SENT.length];
                Arrays.fill(got, -1);
                MpiException e = assertThrows(MpiException.class,
                        () -> w.recv(MemorySegment.ofArray(got), 1, shortColumn, 0, 0));
                assertEquals(ErrorClass.ERR_TRUNCATE, e.errorClass());
                for (int i = 0; i < got.length; i++) {
                    double want = i < 60_000 && i % 2 == 0 ? SENT[i] : -1;
                    assertEquals(want, got[i], "element " + i);
                }
            }
        });
        assertEquals(240_000, value(reg, "jspin.memory.nic.written", 1), "the DMA wrote the first 240,000 bytes only");
        assertEquals(30_000, value(reg, "jspin.sim.dma.writes", 1));
    }

    @Test
    void aSignatureMismatchFailsWithErrTypeAndWritesNothing() {
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype ints = Datatype.vector(50_000, 1, 2, Datatype.INT).commit();
        Datatype floats = Datatype.vector(50_000, 1, 2, Datatype.FLOAT).commit();
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(new int[100_000]), 1, ints, 1, 0);
            } else {
                float[] got = new float[100_000];
                Arrays.fill(got, 3f);
                MpiException e = assertThrows(MpiException.class,
                        () -> w.recv(MemorySegment.ofArray(got), 1, floats, 0, 0));
                assertEquals(ErrorClass.ERR_TYPE, e.errorClass());
                for (float f : got) {
                    assertEquals(3f, f);
                }
            }
        });
        assertEquals(0, value(reg, "jspin.sim.dma.writes", 1));
        assertEquals(0, value(reg, "jspin.sim.handlers.header", 1), "no header handler for a receive that takes nothing");
    }

    @Test
    void anEmptyMessageRunsNoHandlerAndASinglePacketMessageRunsOne() {
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype small = Datatype.vector(100, 1, 2, Datatype.DOUBLE).commit(); // 800 B: one NIC packet
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.barrier(); // both receives are posted
                w.send(MemorySegment.ofArray(SENT), 0, small, 1, 0);
                w.send(MemorySegment.ofArray(SENT), 1, small, 1, 1);
            } else {
                double[] got = new double[200];
                Request empty = w.irecv(MemorySegment.ofArray(got), 0, small, 0, 0);
                Request one = w.irecv(MemorySegment.ofArray(got), 1, small, 0, 1);
                w.barrier();
                assertEquals(0, empty.waitFor().count(small));
                one.waitFor();
                for (int i = 0; i < 200; i += 2) {
                    assertEquals(SENT[i], got[i]);
                }
            }
        });
        assertEquals(1, value(reg, "jspin.sim.handlers.payload", 1), "one packet, one payload handler");
        assertEquals(1, value(reg, "jspin.sim.handlers.header", 1));
        assertEquals(1, value(reg, "jspin.sim.handlers.completion", 1));
        assertEquals(100, value(reg, "jspin.sim.dma.writes", 1));
    }

    @Test
    void aLinkThatLosesAndDuplicatesPacketsStillDeliversTheExactColumn() {
        System.setProperty("jspin.sim", "strategy=rw-cp,drop=0.05,duplicate=0.05,ooo-window=8,seed=11");
        MeterRegistry reg = new SimpleMeterRegistry();
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            for (int round = 0; round < 3; round++) {
                if (w.rank() == 0) {
                    w.send(MemorySegment.ofArray(SENT), 1, COLUMN, 1, round);
                } else {
                    double[] got = new double[SENT.length];
                    Arrays.fill(got, -round);
                    w.recv(MemorySegment.ofArray(got), 1, COLUMN, 0, round);
                    assertArrayEquals(expectedColumn(-round), got, "round " + round);
                }
            }
        });
        double dropped = value(reg, "jspin.sim.link.dropped", 1);
        assertTrue(dropped > 0, "588 packets at 5 %");
        assertEquals(dropped, value(reg, "jspin.sim.link.retransmissions", 1));
        assertTrue(value(reg, "jspin.sim.link.duplicates.discarded", 1) > 0);
        assertEquals(3 * Math.ceil(400_000 / 2048.0), value(reg, "jspin.sim.handlers.payload", 1),
                "one handler per packet, whatever the link did");
        assertEquals(3 * 400_000, value(reg, "jspin.memory.nic.written", 1), "each byte written once");
    }

    @Test
    void aPacketTheLinkKeepsLosingFailsThatReceiveWithErrOtherAndTheNextMessageStillArrives() {
        System.setProperty("jspin.sim", "strategy=rw-cp,drop=0.5,retransmits=1");
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype small = Datatype.vector(100, 1, 2, Datatype.DOUBLE).commit(); // one packet: lost twice 1 in 4
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(SENT), 1, COLUMN, 1, 0);
            } else {
                double[] got = new double[SENT.length];
                MpiException e = assertThrows(MpiException.class,
                        () -> w.recv(MemorySegment.ofArray(got), 1, COLUMN, 0, 0), "196 packets at 50 %, 1 retry");
                assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
                assertTrue(e.getMessage().contains("the link gives up after 1 retransmissions"), e.getMessage());
            }
            // the ranks go on: later messages get through or fail the same way, and nothing is held
            w.barrier();
        });
        assertEquals(0, value(reg, "jspin.sim.nic.memory.in.use", 1), "the failed receive's NIC memory is given back");
        assertEquals(0, value(reg, "jspin.sim.handlers.completion", 1), "no completion handler for a failed message");
    }

    @Test
    void receivesBeyondTheNicMemoryFallBackToTheCpuOneByOneAndAllAreExact() {
        SimConfig config = SimConfig.parse("strategy=specialized");
        long need = Strategies.nicBytes("specialized", MessageShape.of(COLUMN, 1), config);
        System.setProperty("jspin.sim", "strategy=specialized,nic-memory=" + (need + need / 2)); // one at a time
        MeterRegistry reg = new SimpleMeterRegistry();
        int messages = 4;
        LocalRanks.run(2, sim(reg), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.barrier(); // every receive is posted, so each is matched on arrival and holds NIC memory
                Request[] s = new Request[messages];
                for (int t = 0; t < messages; t++) {
                    s[t] = w.isend(MemorySegment.ofArray(SENT), 1, COLUMN, 1, t); // all in flight at once
                }
                for (Request q : s) {
                    q.waitFor();
                }
            } else {
                double[][] got = new double[messages][SENT.length];
                Request[] r = new Request[messages];
                for (int t = 0; t < messages; t++) {
                    Arrays.fill(got[t], t);
                    r[t] = w.irecv(MemorySegment.ofArray(got[t]), 1, COLUMN, 0, t);
                }
                w.barrier();
                for (int t = 0; t < messages; t++) {
                    r[t].waitFor();
                    assertArrayEquals(expectedColumn(t), got[t], "message " + t);
                }
            }
        });
        double offloaded = value(reg, "jspin.sim.messages.offloaded", 1);
        double fellBack = value(reg, "jspin.sim.messages.fallback", 1);
        assertEquals(messages, offloaded + fellBack);
        assertTrue(offloaded >= 1 && fellBack >= 1, offloaded + " offloaded, " + fellBack + " on the CPU");
        assertTrue(value(reg, "jspin.sim.nic.memory.peak", 1) <= need + need / 2, "never more than the NIC has");
        assertEquals(0, value(reg, "jspin.sim.nic.memory.in.use", 1), "all given back");
    }
}
