package org.jspin.conformance;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Message;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** probe and iprobe report without taking; mprobe and improbe take, so only their Message receives. */
class ProbeTest {
    private static long[] sizes(NicConfig nic) {
        return new long[] {0, 12, Targets.eagerLimit(nic), Targets.eagerLimit(nic) + 1L, 2L * Targets.chunkSize(nic) + 5};
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void probeReportsWithoutTaking(Target target, NicConfig nic) {
        long[] sizes = sizes(nic);
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            Comm ctl = w.dup();
            if (w.rank() != 0) {
                ctl.barrier(); // rank 0 has checked that nothing is there yet
                List<Request> sends = new ArrayList<>();
                if (w.rank() == 1) {
                    for (int i = 0; i < sizes.length; i++) {
                        sends.add(w.isend(Bytes.pattern(sizes[i], i), sizes[i], Datatype.BYTE, 0, 20 + i));
                    }
                }
                Request.waitAll(sends);
                ctl.barrier(); // rank 0 has received them all
                return;
            }
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "iprobe with nothing sent");
            assertNull(w.iprobe(1, 20));
            ctl.barrier();
            for (int i = sizes.length - 1; i >= 0; i--) { // probe the later ones first: each tag is its own
                Status s = w.probe(1, 20 + i);
                assertEquals(1, s.source());
                assertEquals(20 + i, s.tag());
                assertEquals(sizes[i], s.byteCount(), "probed length of message " + i);
                Status again = w.iprobe(Comm.ANY_SOURCE, 20 + i);
                assertNotNull(again, "a probe does not take the message");
                assertEquals(sizes[i], again.byteCount());
            }
            assertNull(w.iprobe(2, Comm.ANY_TAG), "nothing from rank 2");
            Status first = w.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
            assertEquals(20, first.tag(), "a wildcard probe sees the oldest message");
            for (int i = 0; i < sizes.length; i++) {
                MemorySegment buf = MemorySegment.ofArray(new byte[(int) sizes[i]]);
                Status s = w.recv(buf, sizes[i], Datatype.BYTE, 1, 20 + i);
                assertEquals(sizes[i], s.byteCount());
                Bytes.assertSameBytes(Bytes.pattern(sizes[i], i), buf, "message " + i + " after probes");
            }
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "all received");
            ctl.barrier();
        });
    }

    /**
     * mprobe takes message A; message B with the same envelope then arrives; a wildcard receive gets
     * B, not A, and only A's Message receives A, once.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void matchedProbeTakesTheMessage(Target target, NicConfig nic) {
        long[] sizes = sizes(nic);
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            Comm ctl = w.dup();
            for (int i = 0; i < sizes.length; i++) {
                long size = sizes[i];
                if (w.rank() == 1) {
                    Request a = w.isend(Bytes.pattern(size, 2 * i), size, Datatype.BYTE, 0, 7);
                    ctl.barrier(); // A has been taken
                    Request b = w.isend(Bytes.pattern(size, 2 * i + 1), size, Datatype.BYTE, 0, 7);
                    Request.waitAll(a, b);
                    ctl.barrier();
                    continue;
                }
                Message m = i % 2 == 0 ? w.mprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) : pollImprobe(w);
                assertEquals(1, m.status().source());
                assertEquals(7, m.status().tag());
                assertEquals(size, m.status().byteCount());
                assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "a taken message is not seen by iprobe");
                assertNull(w.improbe(1, 7), "nor by improbe");
                ctl.barrier();
                MemorySegment bufB = MemorySegment.ofArray(new byte[(int) size]);
                Status sb = w.irecv(bufB, size, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG).waitFor();
                assertEquals(size, sb.byteCount());
                Bytes.assertSameBytes(Bytes.pattern(size, 2 * i + 1), bufB, "the wildcard receive got B");
                MemorySegment bufA = MemorySegment.ofArray(new byte[(int) size]);
                Status sa = m.recv(bufA, size, Datatype.BYTE);
                assertEquals(size, sa.byteCount());
                assertEquals(1, sa.source());
                Bytes.assertSameBytes(Bytes.pattern(size, 2 * i), bufA, "Message.recv got A");
                MpiException e = assertThrows(MpiException.class, () -> m.recv(bufA, size, Datatype.BYTE));
                assertEquals(ErrorClass.ERR_REQUEST, e.errorClass(), "a message is received once");
                ctl.barrier();
            }
        });
    }

    /**
     * Two threads of rank 0 mprobe and receive concurrently; every message is taken by exactly one
     * thread, and the data each gets is that of the message it probed (tag = index = payload).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void concurrentMatchedProbesNeverShareAMessage(Target target, NicConfig nic) {
        int perThread = 150;
        long big = Targets.eagerLimit(nic) + 8L;
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < 2 * perThread; i++) {
                    long size = i % 5 == 0 ? big : 8;
                    MemorySegment data = Bytes.pattern(size, i);
                    data.set(JAVA_INT_UNALIGNED, 0, i);
                    sends.add(w.isend(data, size, Datatype.BYTE, 0, i));
                }
                Request.waitAll(sends);
                return;
            }
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            BitSet[] got = {new BitSet(), new BitSet()};
            Thread[] threads = new Thread[2];
            for (int t = 0; t < 2; t++) {
                int me = t;
                threads[t] = Thread.ofPlatform().name("prober-" + t).start(() -> {
                    try {
                        for (int k = 0; k < perThread; k++) {
                            Message m = w.mprobe(1, Comm.ANY_TAG);
                            int tag = m.status().tag();
                            MemorySegment buf = MemorySegment.ofArray(new byte[(int) big]);
                            Status s = m.recv(buf, big, Datatype.BYTE);
                            assertEquals(tag, buf.get(JAVA_INT_UNALIGNED, 0), "payload of the probed message");
                            assertEquals(m.status().byteCount(), s.byteCount());
                            got[me].set(tag);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
            }
            for (Thread t : threads) {
                t.join();
            }
            if (!errors.isEmpty()) {
                AssertionError a = new AssertionError("a probing thread failed", errors.peek());
                errors.forEach(a::addSuppressed);
                throw a;
            }
            assertFalse(got[0].intersects(got[1]), "a message taken by both threads");
            BitSet all = (BitSet) got[0].clone();
            all.or(got[1]);
            assertEquals(2 * perThread, all.cardinality(), "every message taken once");
            assertTrue(got[0].cardinality() == perThread && got[1].cardinality() == perThread);
        });
    }

    private static Message pollImprobe(Comm w) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            Message m = w.improbe(Comm.ANY_SOURCE, Comm.ANY_TAG);
            if (m != null) {
                return m;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("improbe found nothing within 30 s");
    }
}
