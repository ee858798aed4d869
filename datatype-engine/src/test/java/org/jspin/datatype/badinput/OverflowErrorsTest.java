package org.jspin.datatype.badinput;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;
import static org.jspin.error.ErrorClass.ERR_ARG;
import static org.jspin.error.ErrorClass.ERR_BUFFER;
import static org.jspin.error.ErrorClass.ERR_COUNT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Set;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.datatype.testing.Named;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/**
 * Sizes, bounds and offsets that do not fit in 64 bits must be refused with an MPI error, never
 * wrap around: a wrapped bound or offset would make a later buffer check pass and a copy fault (or,
 * with native memory, write elsewhere).
 */
class OverflowErrorsTest {
    private static final Datatype BYTE = Named.BYTE;
    private static final Datatype INT = Named.INT;
    private static final long BIG = 1L << 40;

    @Test
    void vectorWhoseSpanOverflowsIsErrArg() {
        // (count - 1) * stride * 4 bytes is about 2^82
        assertMpiError(ERR_ARG, () -> Datatype.vector(BIG, 1, BIG, INT), "overflows 64 bits");
        assertMpiError(ERR_ARG, () -> Datatype.hvector(BIG, 1, BIG, INT), "overflows 64 bits");
    }

    @Test
    void vectorStrideInBytesThatOverflowsIsErrArg() {
        assertMpiError(ERR_ARG, () -> Datatype.vector(2, 1, Long.MAX_VALUE / 2, INT), "stride", "overflows");
    }

    @Test
    void resizedUpperBoundThatOverflowsIsErrArg() {
        assertMpiError(ERR_ARG, () -> Datatype.resized(Long.MAX_VALUE - 1, 10, INT), "ub", "overflows");
    }

    @Test
    void contiguousOfAHugeTypeWhoseSizeOverflowsIsErrArg() {
        Datatype big = Datatype.contiguous(BIG, BYTE); // 2^40 bytes: fine
        assertMpiError(ERR_ARG, () -> Datatype.contiguous(BIG, big), "overflows 64 bits"); // 2^80 bytes
    }

    @Test
    void displacementsThatOverflowAreErrArg() {
        assertMpiError(ERR_ARG, () -> Datatype.hindexed(new long[] {1}, new long[] {Long.MAX_VALUE - 2}, INT),
                "overflows");
        assertMpiError(ERR_ARG, () -> Datatype.indexed(new long[] {1}, new long[] {Long.MAX_VALUE / 2}, INT),
                "displacement", "overflows");
        assertMpiError(ERR_ARG, () -> Datatype.struct(new long[] {2}, new long[] {Long.MAX_VALUE - 4},
                new Datatype[] {INT}), "overflows");
        // both ends fit, their distance does not
        assertMpiError(ERR_ARG, () -> Datatype.hindexed(new long[] {1, 1},
                new long[] {Long.MIN_VALUE + 10, Long.MAX_VALUE - 10}, BYTE), "extent", "overflows");
    }

    @Test
    void subarrayWhoseArrayExtentOverflowsIsErrArg() {
        long s = 1L << 32;
        assertMpiError(ERR_ARG, () -> Datatype.subarray(new long[] {s, s}, new long[] {1, 1}, new long[] {0, 0},
                Order.C, INT), "subarray", "overflows");
    }

    @Test
    void messageWhoseExtentTimesCountOverflowsIsErrCount() {
        Datatype t = Datatype.contiguous(BIG, INT).commit(); // extent 2^42
        MemorySegment buf = MemorySegment.ofArray(new byte[16]);
        assertMpiError(ERR_COUNT, () -> t.cursor(BIG, buf), String.valueOf(BIG));
        assertMpiError(ERR_COUNT, () -> t.regions(BIG), String.valueOf(BIG));
    }

    @Test
    void packSizeThatOverflowsIsErrCount() {
        // ErrorClass.ERR_COUNT: "negative, or too large"; the cursor reports the same condition so
        assertMpiError(ERR_COUNT, () -> INT.packSize(Long.MAX_VALUE / 2), String.valueOf(Long.MAX_VALUE / 2));
    }

    /**
     * Element 1 of this type starts at 2^62 and holds a byte at 2^62 past that: byte 2^63, one
     * past Long.MAX_VALUE. Count times extent fits, the offset does not.
     */
    private static Datatype reachingPastLongMax() {
        Datatype far = Datatype.hindexed(new long[] {1}, new long[] {1L << 62}, BYTE);
        return Datatype.resized(0, 1L << 62, far).commit();
    }

    @Test
    void regionsWhoseOffsetsOverflowAreRefused() {
        assertMpiError(ERR_COUNT, () -> reachingPastLongMax().regions(2), "2");
    }

    @Test
    void cursorWhoseTypeMapOffsetsOverflowIsRefusedWithoutTouchingMemory() {
        Datatype t = reachingPastLongMax();
        byte[] typed = new byte[64];
        byte[] packed = new byte[64];
        MpiException e = assertThrows(MpiException.class, () -> {
            t.cursor(2, MemorySegment.ofArray(typed)).pack(MemorySegment.ofArray(packed), 0, 2);
        });
        assertOneOf(Set.of(ERR_COUNT, ERR_BUFFER), e);
        assertArrayEquals(new byte[64], packed, "nothing packed");
        assertMpiErrorOneOf(() -> t.unpack(2, MemorySegment.ofArray(new byte[2]), MemorySegment.ofArray(typed)));
        assertArrayEquals(new byte[64], typed, "nothing unpacked");
    }

    @Test
    void originNearTheEndsOfTheLongRangeIsErrBuffer() {
        Datatype t = INT.dup().commit();
        byte[] typed = new byte[16];
        // origin + 4 wraps around: the type map's end must still be seen to lie outside the buffer
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, MemorySegment.ofArray(typed), Long.MIN_VALUE));
        assertMpiError(ERR_BUFFER, () -> t.cursor(1, MemorySegment.ofArray(typed), Long.MAX_VALUE - 1));
    }

    private static void assertMpiErrorOneOf(org.junit.jupiter.api.function.Executable call) {
        assertOneOf(Set.of(ERR_COUNT, ERR_BUFFER), assertThrows(MpiException.class, call));
    }

    private static void assertOneOf(Set<ErrorClass> allowed, MpiException e) {
        assertTrue(allowed.contains(e.errorClass()), () -> "expected one of " + allowed + ": " + e.getMessage());
    }
}
