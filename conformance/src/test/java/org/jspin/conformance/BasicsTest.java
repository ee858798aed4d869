package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Zero-size messages, self-sends, and MPI_Get_count / MPI_Get_elements of received messages. */
class BasicsTest {
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void zeroSizeMessages(Target target, NicConfig nic) {
        Datatype empty = Datatype.contiguous(0, Datatype.INT).commit();
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            MemorySegment none = MemorySegment.ofArray(new byte[0]);
            if (w.rank() == 0) {
                w.send(none, 0, Datatype.INT, 1, 1);
                w.send(none, 3, empty, 1, 2);
                w.send(none, 0, Datatype.BYTE, 1, 3);
                w.isend(MemorySegment.ofArray(new int[4]), 0, Datatype.INT, 1, 4).waitFor();
                w.send(MemorySegment.ofArray(new int[] {99}), 1, Datatype.INT, 1, 5);
                return;
            }
            MemorySegment buf = Bytes.sentinels(40);
            Status p = w.probe(0, 1);
            assertEquals(0, p.byteCount());
            for (int tag = 1; tag <= 4; tag++) {
                Status s = w.recv(buf, 10, Datatype.INT, 0, Comm.ANY_TAG);
                assertEquals(tag, s.tag(), "zero-size messages keep their order");
                assertEquals(0, s.source());
                assertEquals(0, s.byteCount());
                assertEquals(0, s.count(Datatype.INT));
                assertEquals(0, s.elements(Datatype.INT));
                assertEquals(0, s.count(empty), "count of a zero-size type in an empty message");
            }
            Bytes.assertSameBytes(Bytes.sentinels(40), buf, "an empty message writes nothing");
            int[] v = new int[1];
            w.recv(MemorySegment.ofArray(v), 1, Datatype.INT, 0, 5);
            assertEquals(99, v[0]);
        });
    }

    /** A rank sends to itself: eager and rendezvous, contiguous and strided, receive first or send first. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void selfSends(Target target, NicConfig nic) {
        long[] sizes = {0, 1, Targets.eagerLimit(nic), Targets.eagerLimit(nic) + 1L, 3L * Targets.chunkSize(nic) + 7};
        for (int ranks : new int[] {1, 2}) {
            target.run(ranks, nic, mpi -> {
                Comm w = mpi.world();
                int me = w.rank();
                for (int i = 0; i < sizes.length; i++) {
                    long size = sizes[i];
                    long seed = 100L * me + i;
                    // send first (unexpected for an eager message, RTS waiting for a rendezvous one)
                    Request s = w.isend(Bytes.pattern(size, seed), size, Datatype.BYTE, me, i);
                    MemorySegment buf = MemorySegment.ofArray(new byte[(int) size]);
                    Status st = w.recv(buf, size, Datatype.BYTE, me, i);
                    s.waitFor();
                    assertEquals(me, st.source());
                    assertEquals(size, st.byteCount());
                    Bytes.assertSameBytes(Bytes.pattern(size, seed), buf, "self-send of " + size + " bytes");
                    // receive first, blocking send
                    MemorySegment buf2 = MemorySegment.ofArray(new byte[(int) size]);
                    Request r = w.irecv(buf2, size, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    w.send(Bytes.pattern(size, seed + 50), size, Datatype.BYTE, me, 1000 + i);
                    st = r.waitFor();
                    assertEquals(1000 + i, st.tag());
                    Bytes.assertSameBytes(Bytes.pattern(size, seed + 50), buf2, "posted self-receive of " + size);
                }
                // strided both ways: every third int into every second one, through sendrecv
                int n = (int) (3L * Targets.chunkSize(nic) / 4);
                Datatype third = Datatype.vector(n, 1, 3, Datatype.INT).commit();
                Datatype second = Datatype.vector(n, 1, 2, Datatype.INT).commit();
                MemorySegment from = Bytes.pattern(third.extent(), 7);
                MemorySegment into = Bytes.sentinels(second.extent() + 8);
                w.sendrecv(from, 1, third, me, 5, into, 1, second, me, 5);
                MemorySegment packed = MemorySegment.ofArray(new byte[4 * n]);
                third.pack(1, from, packed);
                MemorySegment expected = Bytes.sentinels(second.extent() + 8);
                second.cursor(1, expected).unpack(packed, 0, packed.byteSize());
                Bytes.assertSameBytes(expected, into, "strided self-sendrecv");
            });
        }
    }

    /** MPI_Get_count and MPI_Get_elements of what arrived, including UNDEFINED. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void countAndElements(Target target) {
        Datatype intPair = Datatype.contiguous(2, Datatype.INT).commit();
        Datatype intDouble = Datatype.struct(new long[] {1, 1}, new long[] {0, 4},
                new Datatype[] {Datatype.INT, Datatype.DOUBLE}).commit(); // size 12
        Datatype column = Datatype.vector(3, 1, 5, Datatype.INT).commit();
        target.run(2, mpi -> {
            Comm w = mpi.world();
            long[] bytes = {28, 5, 16, 14, 24, 0};
            if (w.rank() == 0) {
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < bytes.length; i++) {
                    sends.add(w.isend(Bytes.pattern(bytes[i], i), bytes[i], Datatype.BYTE, 1, i));
                }
                sends.add(w.isend(MemorySegment.ofArray(new int[7]), 7, Datatype.INT, 1, 10));
                sends.add(w.isend(MemorySegment.ofArray(new int[22]), 2, column, 1, 11));
                Request.waitAll(sends);
                return;
            }
            MemorySegment buf = MemorySegment.ofArray(new byte[1024]);
            // 28 bytes: 7 ints, 3.5 int pairs
            Status s = w.recv(buf, 28, Datatype.BYTE, 0, 0);
            assertEquals(7, s.count(Datatype.INT));
            assertEquals(Status.UNDEFINED, s.count(intPair));
            assertEquals(7, s.elements(intPair));
            assertEquals(28, s.count(Datatype.BYTE));
            // 5 bytes: not a whole int
            s = w.recv(buf, 8, Datatype.BYTE, 0, 1);
            assertEquals(Status.UNDEFINED, s.count(Datatype.INT));
            assertEquals(Status.UNDEFINED, s.elements(Datatype.INT));
            assertEquals(5, s.elements(Datatype.BYTE));
            // 16 bytes into int,double structs: one whole (12) and an int of the next
            s = w.recv(buf, 2, intDouble, 0, 2);
            assertEquals(16, s.byteCount());
            assertEquals(Status.UNDEFINED, s.count(intDouble));
            assertEquals(3, s.elements(intDouble));
            // 14 bytes: ends inside the int of the second struct
            s = w.recv(buf, 2, intDouble, 0, 3);
            assertEquals(Status.UNDEFINED, s.elements(intDouble));
            // 24 bytes: two whole structs
            s = w.recv(buf, 2, intDouble, 0, 4);
            assertEquals(2, s.count(intDouble));
            assertEquals(4, s.elements(intDouble));
            s = w.recv(buf, 2, intDouble, 0, 5);
            assertEquals(0, s.count(intDouble));
            assertEquals(0, s.elements(intDouble));
            // typed messages
            s = w.recv(buf, 100, Datatype.INT, 0, 10);
            assertEquals(7, s.count(Datatype.INT));
            assertEquals(28, s.byteCount());
            s = w.recv(buf, 10, Datatype.INT, 0, 11);
            assertEquals(6, s.count(Datatype.INT), "2 columns of 3 ints");
            assertEquals(2, s.count(column));
            assertEquals(6, s.elements(column));
        });
    }
}
