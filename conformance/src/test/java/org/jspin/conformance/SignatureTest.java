package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.List;
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
 * Type signatures travel with messages: a receive whose signature differs from the message's
 * fails with ERR_TYPE and writes nothing; BYTE on either side matches anything; the same
 * signature in other layouts matches.
 */
class SignatureTest {
    private static final Datatype INT_FLOAT = Datatype.struct(new long[] {1, 1}, new long[] {0, 4},
            new Datatype[] {Datatype.INT, Datatype.FLOAT}).commit();
    private static final Datatype INT_INT = Datatype.struct(new long[] {1, 1}, new long[] {0, 4},
            new Datatype[] {Datatype.INT, Datatype.INT}).commit();
    private static final Datatype INT_INT_FLOAT = Datatype.struct(new long[] {2, 1}, new long[] {0, 8},
            new Datatype[] {Datatype.INT, Datatype.FLOAT}).commit();
    private static final Datatype TWO_SHORTS = Datatype.contiguous(2, Datatype.SHORT).commit();
    private static final Datatype INT_PAIRS = Datatype.contiguous(2, Datatype.INT).commit();
    private static final Datatype INT_COLUMN = Datatype.vector(8, 1, 3, Datatype.INT).commit();

    /**
     * One exchange: {@code sendCount} x {@code send} against {@code recvCount} x {@code recv};
     * {@code ok} whether it must succeed (else ERR_TYPE).
     */
    record Pair(String name, Datatype send, long sendCount, Datatype recv, long recvCount, boolean ok) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Pair> pairs(long n) {
        return List.of(
                new Pair("int->float x" + n, Datatype.INT, n, Datatype.FLOAT, n, false),
                new Pair("float->int x" + n, Datatype.FLOAT, n, Datatype.INT, n, false),
                new Pair("long->double x" + n, Datatype.LONG, n, Datatype.DOUBLE, n, false),
                new Pair("int->short,short x" + n, Datatype.INT, n, TWO_SHORTS, n, false),
                new Pair("int,int->int,float x" + n, INT_INT, n, INT_FLOAT, n, false),
                new Pair("3 ints->int,int,float x" + n, Datatype.INT, 3 * n, INT_INT_FLOAT, n, false),
                new Pair("int->byte x" + n, Datatype.INT, n, Datatype.BYTE, 4 * n, true),
                new Pair("byte->int x" + n, Datatype.BYTE, 4 * n, Datatype.INT, n, true),
                new Pair("byte->int,float x" + n, Datatype.BYTE, 8 * n, INT_FLOAT, n, true),
                new Pair("int pairs->ints x" + n, INT_PAIRS, n, Datatype.INT, 2 * n, true),
                new Pair("int,int struct->ints x" + n, INT_INT, n, Datatype.INT, 2 * n, true),
                new Pair("int column->ints x" + n, INT_COLUMN, n, Datatype.INT, 8 * n, true),
                new Pair("2 ints->int,int,float x" + n, Datatype.INT, 2, INT_INT_FLOAT, n, true),
                new Pair("int->int (longer receive) x" + n, Datatype.INT, n, Datatype.INT, n + 5, true));
    }

    static Stream<Arguments> cases() {
        return Targets.withProtocols().flatMap(a -> {
            NicConfig nic = (NicConfig) ((Named<?>) a.get()[1]).getPayload();
            // an eager message, and one long enough for rendezvous in several chunks
            long rendezvous = (2L * Targets.chunkSize(nic) + 64) / 4;
            return Stream.of(4L, rendezvous).flatMap(n -> pairs(n).stream())
                    .map(p -> Arguments.of(a.get()[0], a.get()[1], p));
        });
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void signaturesAreChecked(Target target, NicConfig nic, Pair p) {
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            long sendSpan = span(p.send, p.sendCount);
            long recvSpan = span(p.recv, p.recvCount) + 32;
            long seed = p.name.hashCode();
            if (w.rank() == 0) {
                MemorySegment data = Bytes.pattern(sendSpan, seed);
                Request s = w.isend(data, p.sendCount, p.send, 1, 4);
                s.waitFor(); // completes whether the receiver accepted the data or not
                w.send(MemorySegment.ofArray(new int[] {42}), 1, Datatype.INT, 1, 5);
                return;
            }
            MemorySegment buf = Bytes.sentinels(recvSpan);
            MemorySegment expected = Bytes.sentinels(recvSpan);
            if (p.ok) {
                Status s = w.recv(buf, p.recvCount, p.recv, 0, 4);
                MemorySegment data = Bytes.pattern(sendSpan, seed);
                long bytes = p.send.packSize(p.sendCount);
                assertEquals(bytes, s.byteCount());
                MemorySegment packed = MemorySegment.ofArray(new byte[(int) bytes]);
                p.send.cursor(p.sendCount, data).pack(packed, 0, bytes);
                p.recv.cursor(p.recvCount, expected).unpack(packed, 0, bytes);
                Bytes.assertSameBytes(expected, buf, "received data");
            } else {
                MpiException e = assertThrows(MpiException.class, () -> w.recv(buf, p.recvCount, p.recv, 0, 4));
                assertEquals(ErrorClass.ERR_TYPE, e.errorClass(), e.toString());
                Bytes.assertSameBytes(expected, buf, "a mismatched receive writes nothing");
            }
            int[] next = new int[1];
            w.recv(MemorySegment.ofArray(next), 1, Datatype.INT, 0, 5);
            assertEquals(42, next[0], "the message after it");
        });
    }

    /** @return bytes from the origin to the end of the type map (the types here have lb 0) */
    private static long span(Datatype t, long count) {
        return count == 0 ? 0 : (count - 1) * t.extent() + t.trueLb() + t.trueExtent();
    }
}
