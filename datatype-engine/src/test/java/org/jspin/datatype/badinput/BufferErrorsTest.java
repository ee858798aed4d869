package org.jspin.datatype.badinput;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;
import static org.jspin.error.ErrorClass.ERR_ARG;
import static org.jspin.error.ErrorClass.ERR_BUFFER;
import static org.jspin.error.ErrorClass.ERR_TYPE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.testing.Named;
import org.jspin.datatype.testing.Pieces;
import org.jspin.datatype.testing.TypeMapOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Buffers and positions a transfer must refuse before it moves a byte: an uncommitted type, a typed
 * buffer that does not hold the whole type map, a contiguous range outside its buffer, a read-only
 * destination, a seek outside the message. After each refusal the buffers are exactly as before.
 */
class BufferErrorsTest {
    private static final Datatype INT = Named.INT;

    /** Types whose type maps reach below displacement 0 or beyond one extent. */
    static Stream<Arguments> types() {
        return Stream.of(
                Arguments.of("vector, negative stride", Datatype.vector(3, 2, -3, INT), 2L),
                Arguments.of("struct, negative displacement", Datatype.struct(new long[] {1, 2},
                        new long[] {-6, 9}, new Datatype[] {Named.SHORT, Named.DOUBLE}), 3L),
                Arguments.of("resized, extent below true extent", Datatype.resized(-4, 6,
                        Datatype.hvector(2, 1, 10, INT)), 4L),
                Arguments.of("subarray, F order", Datatype.subarray(new long[] {4, 5}, new long[] {2, 3},
                        new long[] {1, 2}, Order.FORTRAN, Named.DOUBLE), 1L));
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return b;
    }

    @Test
    void uncommittedTypeIsErrType() {
        Datatype t = Datatype.vector(2, 1, 2, INT);
        MemorySegment buf = MemorySegment.ofArray(new byte[64]);
        assertMpiError(ERR_TYPE, () -> t.cursor(1, buf), "not committed");
        assertMpiError(ERR_TYPE, () -> t.pack(1, buf, MemorySegment.ofArray(new byte[64])), "not committed");
        assertMpiError(ERR_TYPE, () -> t.unpack(1, MemorySegment.ofArray(new byte[64]), buf), "not committed");
        assertMpiError(ERR_TYPE, t::compiled, "not committed");
        // a dup is a new type: committing the original does not commit it
        t.commit();
        assertMpiError(ERR_TYPE, () -> t.dup().cursor(1, buf), "not committed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void typedBufferOneByteShortAtEitherEndIsErrBufferAndUntouched(String name, Datatype type, long count) {
        Datatype t = type.commit();
        Pieces m = new TypeMapOracle().message(t, count);
        long lo = m.minOffset();
        int span = (int) (m.maxEnd() - lo);
        int packedSize = (int) m.total();
        // exactly the footprint works (so that the refusals below are about the missing byte)
        t.cursor(count, MemorySegment.ofArray(new byte[span]), -lo);
        long[] origins = {-lo, -lo - 1}; // short at the top; short at the bottom
        for (long origin : origins) {
            byte[] typed = pattern(span - 1);
            byte[] packed = pattern(packedSize);
            assertMpiError(ERR_BUFFER, () -> t.cursor(count, MemorySegment.ofArray(typed), origin), "bytes");
            assertMpiError(ERR_BUFFER, () -> t.unpack(count, MemorySegment.ofArray(packed),
                    MemorySegment.ofArray(typed).asSlice(Math.max(0, origin))));
            assertArrayEquals(pattern(span - 1), typed, "typed buffer after a refused unpack");
            assertMpiError(ERR_BUFFER, () -> t.pack(count, MemorySegment.ofArray(typed).asSlice(Math.max(0, origin)),
                    MemorySegment.ofArray(packed)));
            assertArrayEquals(pattern(packedSize), packed, "packed buffer after a refused pack");
        }
    }

    @Test
    void negativeOriginIsErrBuffer() {
        Datatype t = INT.dup().commit();
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, MemorySegment.ofArray(new byte[16]), -1), "-1");
    }

    @Test
    void nullBuffersAreErrBuffer() {
        Datatype t = INT.dup().commit();
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, null));
        TypeCursor c = t.cursor(1, MemorySegment.ofArray(new byte[4]));
        assertMpiError(ERR_BUFFER, () -> c.pack(null, 0, 4));
        assertMpiError(ERR_BUFFER, () -> c.unpack(null, 0, 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void packedRangeOutsideTheContiguousBufferIsErrBufferAndWritesNothing(String name, Datatype type, long count) {
        Datatype t = type.commit();
        Pieces m = new TypeMapOracle().message(t, count);
        long lo = m.minOffset();
        int span = (int) (m.maxEnd() - lo);
        int total = (int) m.total();
        byte[] typed = pattern(span);
        TypeCursor cur = t.cursor(count, MemorySegment.ofArray(typed), -lo);
        cur.seek(1);
        byte[] small = new byte[total - 3];
        // [total-4, total-4 + (total-1)) ends past the buffer; a negative offset starts before it
        assertMpiError(ERR_BUFFER, () -> cur.pack(MemorySegment.ofArray(small), total - 4, total), "outside");
        assertMpiError(ERR_BUFFER, () -> cur.pack(MemorySegment.ofArray(small), -1, 2), "-1");
        assertArrayEquals(new byte[total - 3], small, "nothing packed");
        assertEquals(1, cur.position(), "a refused pack does not move the cursor");
        assertMpiError(ERR_BUFFER, () -> cur.unpack(MemorySegment.ofArray(pattern(total - 3)), 0, total), "outside");
        assertArrayEquals(pattern(span), typed, "nothing unpacked");
        assertEquals(1, cur.position(), "a refused unpack does not move the cursor");
        // and the cursor still works from where it was
        byte[] rest = new byte[total - 1];
        assertEquals(total - 1, cur.pack(MemorySegment.ofArray(rest), 0, total));
    }

    @Test
    void readOnlyDestinationIsErrBufferAndWritesNothing() {
        Datatype t = Datatype.vector(2, 1, 2, INT).commit();
        byte[] typed = pattern(12);
        byte[] packed = pattern(8);
        MemorySegment ro = MemorySegment.ofArray(typed).asReadOnly();
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, ro).unpack(MemorySegment.ofArray(packed), 0, 8), "read-only");
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, MemorySegment.ofArray(typed))
                .pack(MemorySegment.ofArray(packed).asReadOnly(), 0, 8), "read-only");
        assertArrayEquals(pattern(12), typed);
        assertArrayEquals(pattern(8), packed);
        // reading from read-only memory is fine
        assertEquals(8, t.cursor(1, ro).pack(MemorySegment.ofArray(new byte[8]), 0, 8));
    }

    @Test
    void seekOutsideTheMessageIsErrArgAndDoesNotMove() {
        Datatype t = Datatype.vector(3, 1, 2, INT).commit();
        TypeCursor cur = t.cursor(2, MemorySegment.ofArray(new byte[64]));
        cur.seek(5);
        assertMpiError(ERR_ARG, () -> cur.seek(-1), "-1");
        assertMpiError(ERR_ARG, () -> cur.seek(25), "25", "24");
        assertEquals(5, cur.position());
        cur.seek(24); // the end itself is inside
        assertEquals(0, cur.remaining());
    }

    @Test
    void checkpointOfAnotherTypeIsErrArg() {
        Datatype a = Datatype.vector(3, 1, 2, INT).commit();
        Datatype b = Datatype.vector(3, 1, 2, INT).commit();
        MemorySegment buf = MemorySegment.ofArray(new byte[64]);
        TypeCursor ca = a.cursor(1, buf);
        TypeCursor cb = b.cursor(1, buf);
        ca.seek(4);
        cb.seek(8);
        assertMpiError(ERR_ARG, () -> cb.restore(ca.checkpoint()), "checkpoint");
        assertMpiError(ERR_ARG, () -> cb.checkpoint(ca.checkpoint()), "checkpoint");
        assertEquals(8, cb.position());
        // the same type, another count: another message
        TypeCursor c3 = a.cursor(3, MemorySegment.ofArray(new byte[128]));
        assertMpiError(ERR_ARG, () -> c3.restore(ca.checkpoint()), "checkpoint");
    }
}
