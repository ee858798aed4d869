package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A message longer than its receive: ERR_TRUNCATE on that receive, exactly the first capacity
 * bytes written into the receive's type map, nothing else in the buffer touched (the gaps of a
 * strided type and the bytes after it hold sentinels), and the sender completes normally.
 */
class TruncationTest {
    /** How the receive is set up. */
    enum Posting { POSTED_FIRST, UNEXPECTED }

    /** One case: receive blocks of the strided type, message bytes, whether the message is typed. */
    record Case(long blocks, long messageBytes, boolean typedMessage, Posting posting) {
        @Override
        public String toString() {
            return blocks + " blocks (" + 8 * blocks + " B) <- " + messageBytes + " B " + (typedMessage ? "int" : "byte")
                    + " message, " + posting;
        }
    }

    static Stream<Arguments> cases() {
        return Targets.withProtocols().flatMap(a -> {
            NicConfig nic = (NicConfig) ((Named<?>) a.get()[1]).getPayload();
            long small = 4;
            long big = 3L * Targets.chunkSize(nic) / 8 + 3; // capacity beyond the eager limit, several chunks
            long eager = Targets.eagerLimit(nic);
            Stream.Builder<Case> b = Stream.builder();
            for (Posting p : Posting.values()) {
                for (boolean typed : new boolean[] {false, true}) {
                    b.add(new Case(small, 8 * small + 4, typed, p)); // eager, one int too many
                    b.add(new Case(small, Math.max(8 * small + 8, eager - eager % 4), typed, p));
                    b.add(new Case(small, eager + 4, typed, p)); // rendezvous message, tiny receive
                    b.add(new Case(big, 8 * big + 4, typed, p)); // rendezvous, one int too many
                    b.add(new Case(big, 16 * big + 4 * 1001, typed, p)); // rendezvous, twice as long
                }
            }
            return b.build().map(c -> Arguments.of(a.get()[0], a.get()[1], c));
        });
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void longerMessageTruncatesWithinTheTypeMap(Target target, NicConfig nic, Case c) {
        // receive type: blocks of 2 ints every 4 ints, so 8-byte gaps between the blocks
        Datatype strided = Datatype.vector(c.blocks, 2, 4, Datatype.INT).commit();
        long capacity = strided.size();
        long bufBytes = strided.extent() + 64; // sentinels after the type map too
        long seed = c.toString().hashCode(); // not c.hashCode(): an enum's differs from JVM to JVM
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            MemorySegment message = Bytes.pattern(c.messageBytes, seed);
            if (w.rank() == 0) {
                if (c.posting == Posting.POSTED_FIRST) {
                    w.barrier();
                }
                Request s = c.typedMessage ? w.isend(message, c.messageBytes / 4, Datatype.INT, 1, 9)
                        : w.isend(message, c.messageBytes, Datatype.BYTE, 1, 9);
                if (c.posting == Posting.UNEXPECTED) {
                    w.barrier();
                }
                Status st = s.waitFor(); // the sender is not told about the receiver's truncation
                assertEquals(1, st.source());
                // the pair still works afterwards
                w.send(Bytes.pattern(100, seed + 1), 100, Datatype.BYTE, 1, 10);
                return;
            }
            MemorySegment buf = Bytes.sentinels(bufBytes);
            Request r;
            if (c.posting == Posting.POSTED_FIRST) {
                r = w.irecv(buf, 1, strided, 0, 9);
                w.barrier();
            } else {
                w.barrier();
                r = w.irecv(buf, 1, strided, Comm.ANY_SOURCE, Comm.ANY_TAG);
            }
            MpiException e = assertThrows(MpiException.class, r::waitFor, "receive of a longer message");
            assertEquals(ErrorClass.ERR_TRUNCATE, e.errorClass(), e.toString());
            MemorySegment expected = Bytes.sentinels(bufBytes);
            strided.cursor(1, expected).unpack(message, 0, capacity);
            Bytes.assertSameBytes(expected, buf, "receive buffer after truncation");
            MemorySegment next = MemorySegment.ofArray(new byte[100]);
            Status s = w.recv(next, 100, Datatype.BYTE, 0, 10);
            assertEquals(100, s.byteCount());
            Bytes.assertSameBytes(Bytes.pattern(100, seed + 1), next, "the message after the truncated one");
        });
    }

    /** A blocking receive throws the truncation too, and a contiguous receive gets exactly its capacity. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void blockingContiguousReceiveThrowsTruncate(Target target, NicConfig nic) {
        long[] sizes = {5, Targets.eagerLimit(nic) + 1L, 2L * Targets.chunkSize(nic) + 3};
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            for (long size : sizes) {
                MemorySegment message = Bytes.pattern(size, size);
                if (w.rank() == 0) {
                    w.send(message, size, Datatype.BYTE, 1, 1);
                } else {
                    long capacity = size - 1;
                    MemorySegment buf = Bytes.sentinels(size + 16);
                    MpiException e = assertThrows(MpiException.class,
                            () -> w.recv(buf, capacity, Datatype.BYTE, 0, 1));
                    assertEquals(ErrorClass.ERR_TRUNCATE, e.errorClass(), e.toString());
                    MemorySegment expected = Bytes.sentinels(size + 16);
                    MemorySegment.copy(message, 0, expected, 0, capacity);
                    Bytes.assertSameBytes(expected, buf, "contiguous receive of " + capacity + " from " + size);
                }
            }
        });
    }
}
