package org.jspin.mpi.op;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each predefined operator on each named type, against the same arithmetic done one value at a time. */
class OpsTest {
    static Stream<Arguments> cases() {
        return Stream.of(Ops.SUM, Ops.PROD, Ops.MIN, Ops.MAX).flatMap(op -> Stream.of(Datatype.BYTE,
                Datatype.SHORT, Datatype.INT, Datatype.LONG, Datatype.FLOAT, Datatype.DOUBLE)
                .map(t -> Arguments.of(op.name(), op, t)));
    }

    @ParameterizedTest(name = "{0} on {2}")
    @MethodSource("cases")
    void combinesElementByElement(String name, ReduceOp op, Datatype type) {
        int count = 257;
        SplittableRandom rnd = new SplittableRandom(name.hashCode() * 31L + type.size());
        byte[] a = new byte[(int) type.packSize(count)];
        byte[] b = new byte[a.length];
        rnd.nextBytes(a);
        rnd.nextBytes(b);
        ByteBuffer x = ByteBuffer.wrap(a).order(ByteOrder.nativeOrder());
        ByteBuffer y = ByteBuffer.wrap(b.clone()).order(ByteOrder.nativeOrder());
        op.apply(MemorySegment.ofArray(a), MemorySegment.ofArray(b), count, type);
        ByteBuffer got = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
        for (int i = 0; i < count; i++) {
            String where = name + " " + type + " element " + i;
            switch ((int) type.size()) {
                case 1 -> assertEquals((byte) expect(name, x.get(i), y.get(i)), got.get(i), where);
                case 2 -> assertEquals((short) expect(name, x.getShort(2 * i), y.getShort(2 * i)), got.getShort(2 * i),
                        where);
                case 4 -> {
                    if (type == Datatype.INT) {
                        assertEquals((int) expect(name, x.getInt(4 * i), y.getInt(4 * i)), got.getInt(4 * i), where);
                    } else {
                        assertEquals((float) expectD(name, x.getFloat(4 * i), y.getFloat(4 * i)), got.getFloat(4 * i),
                                where);
                    }
                }
                default -> {
                    if (type == Datatype.LONG) {
                        assertEquals(expect(name, x.getLong(8 * i), y.getLong(8 * i)), got.getLong(8 * i), where);
                    } else {
                        assertEquals(expectD(name, x.getDouble(8 * i), y.getDouble(8 * i)), got.getDouble(8 * i),
                                where);
                    }
                }
            }
        }
    }

    private static long expect(String op, long a, long b) {
        return switch (op) {
            case "SUM" -> a + b;
            case "PROD" -> a * b;
            case "MIN" -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }

    private static double expectD(String op, double a, double b) {
        return switch (op) {
            case "SUM" -> a + b;
            case "PROD" -> a * b;
            case "MIN" -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }

    @Test
    void aUserOperatorSeesTheBuffersAndKeepsItsOrderFlag() {
        ReduceOp sumOfSquares = Ops.user("SUMSQ", (in, inout, count, type) -> {
            for (long i = 0; i < count; i++) {
                double v = in.get(JAVA_DOUBLE_UNALIGNED, 8 * i);
                inout.set(JAVA_DOUBLE_UNALIGNED, 8 * i, inout.get(JAVA_DOUBLE_UNALIGNED, 8 * i) + v * v);
            }
        }, false);
        MemorySegment in = MemorySegment.ofArray(new double[] {1, 2, 3});
        MemorySegment acc = MemorySegment.ofArray(new double[] {10, 10, 10});
        sumOfSquares.apply(in, acc, 3, Datatype.DOUBLE);
        assertEquals(19.0, acc.get(JAVA_DOUBLE_UNALIGNED, 16));
        assertEquals(false, sumOfSquares.commutative());
    }

    @Test
    void badArgumentsAreErrorsBeforeAnyWrite() {
        MemorySegment small = MemorySegment.ofArray(new int[2]);
        MemorySegment big = MemorySegment.ofArray(new int[] {7, 7, 7});
        MpiException e = assertThrows(MpiException.class, () -> Ops.SUM.apply(big, small, 3, Datatype.INT));
        assertEquals(ErrorClass.ERR_BUFFER, e.errorClass());
        assertEquals(0, small.get(JAVA_INT_UNALIGNED, 0));
        assertEquals(ErrorClass.ERR_COUNT,
                assertThrows(MpiException.class, () -> Ops.MAX.apply(big, big, -1, Datatype.INT)).errorClass());
        Datatype pair = Datatype.contiguous(2, Datatype.INT);
        assertEquals(ErrorClass.ERR_OP,
                assertThrows(MpiException.class, () -> Ops.MIN.apply(big, big, 1, pair)).errorClass());
        assertEquals(ErrorClass.ERR_OP,
                assertThrows(MpiException.class, () -> Ops.user("none", null, true)).errorClass());
        // a null operator is not applicable to anything, and a null type is the type's fault
        assertEquals(ErrorClass.ERR_OP,
                assertThrows(MpiException.class, () -> Ops.checkApplicable(null, Datatype.INT)).errorClass());
        assertEquals(ErrorClass.ERR_TYPE,
                assertThrows(MpiException.class, () -> Ops.checkApplicable(Ops.SUM, null)).errorClass());
    }
}
