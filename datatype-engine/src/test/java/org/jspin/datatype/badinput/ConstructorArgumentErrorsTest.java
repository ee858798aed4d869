package org.jspin.datatype.badinput;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;
import static org.jspin.error.ErrorClass.ERR_ARG;
import static org.jspin.error.ErrorClass.ERR_COUNT;
import static org.jspin.error.ErrorClass.ERR_TYPE;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.datatype.testing.Named;
import org.junit.jupiter.api.Test;

/**
 * Bad constructor and count arguments: a negative count is ERR_COUNT, a negative block length or
 * arrays of different lengths ERR_ARG, a missing old type ERR_TYPE; each message names the
 * argument and its value. The values are unusual (-7, -3) so that finding them in the message
 * means the message really quotes them.
 */
class ConstructorArgumentErrorsTest {
    private static final Datatype INT = Named.INT;
    private static final long[] ONE = {1};
    private static final long[] ZERO = {0};

    @Test
    void negativeCountOfEveryCountedConstructorIsErrCount() {
        assertMpiError(ERR_COUNT, () -> Datatype.contiguous(-7, INT), "count", "-7");
        assertMpiError(ERR_COUNT, () -> Datatype.vector(-7, 1, 1, INT), "count", "-7");
        assertMpiError(ERR_COUNT, () -> Datatype.hvector(-7, 1, 4, INT), "count", "-7");
    }

    @Test
    void negativeMessageCountIsErrCount() {
        Datatype t = Datatype.vector(2, 1, 2, INT).commit();
        MemorySegment buf = MemorySegment.ofArray(new byte[64]);
        assertMpiError(ERR_COUNT, () -> t.cursor(-7, buf), "-7");
        assertMpiError(ERR_COUNT, () -> t.cursor(-7, buf, 8), "-7");
        assertMpiError(ERR_COUNT, () -> t.pack(-7, buf, MemorySegment.ofArray(new byte[64])), "-7");
        assertMpiError(ERR_COUNT, () -> t.unpack(-7, MemorySegment.ofArray(new byte[64]), buf), "-7");
        assertMpiError(ERR_COUNT, () -> t.packSize(-7), "-7");
        assertMpiError(ERR_COUNT, () -> t.regions(-7), "-7");
    }

    @Test
    void negativeByteCountOfACursorTransferIsErrCount() {
        Datatype t = INT.dup().commit();
        MemorySegment buf = MemorySegment.ofArray(new byte[8]);
        assertMpiError(ERR_COUNT, () -> t.cursor(2, buf).pack(MemorySegment.ofArray(new byte[8]), 0, -7), "-7");
        assertMpiError(ERR_COUNT, () -> t.cursor(2, buf).unpack(MemorySegment.ofArray(new byte[8]), 0, -7), "-7");
        assertMpiError(ERR_ARG, () -> t.cursor(2, buf).skip(-7), "-7");
    }

    @Test
    void negativeBlocklengthIsErrArg() {
        assertMpiError(ERR_ARG, () -> Datatype.vector(2, -3, 1, INT), "blocklength", "-3");
        assertMpiError(ERR_ARG, () -> Datatype.hvector(2, -3, 4, INT), "blocklength", "-3");
        assertMpiError(ERR_ARG, () -> Datatype.indexedBlock(-3, ZERO, INT), "blocklength", "-3");
        assertMpiError(ERR_ARG, () -> Datatype.hindexedBlock(-3, ZERO, INT), "blocklength", "-3");
    }

    @Test
    void negativeEntryOfBlocklengthsIsErrArgNamingTheIndex() {
        long[] bls = {1, -3};
        long[] disps = {0, 4};
        assertMpiError(ERR_ARG, () -> Datatype.indexed(bls, disps, INT), "blocklengths[1]", "-3");
        assertMpiError(ERR_ARG, () -> Datatype.hindexed(bls, disps, INT), "blocklengths[1]", "-3");
        assertMpiError(ERR_ARG, () -> Datatype.struct(bls, disps, new Datatype[] {INT, INT}),
                "blocklengths[1]", "-3");
    }

    @Test
    void arraysOfDifferentLengthsAreErrArgNamingBoth() {
        long[] two = {1, 1};
        assertMpiError(ERR_ARG, () -> Datatype.indexed(two, ONE, INT), "blocklengths", "displacements", "2", "1");
        assertMpiError(ERR_ARG, () -> Datatype.hindexed(two, ONE, INT), "blocklengths", "displacements_bytes",
                "2", "1");
        assertMpiError(ERR_ARG, () -> Datatype.struct(two, ONE, new Datatype[] {INT, INT}), "blocklengths",
                "displacements_bytes");
        assertMpiError(ERR_ARG, () -> Datatype.struct(two, two, new Datatype[] {INT}), "blocklengths", "types");
        assertMpiError(ERR_ARG, () -> Datatype.subarray(new long[] {4, 4}, new long[] {2}, new long[] {0, 0},
                Order.C, INT), "sizes", "subsizes");
        assertMpiError(ERR_ARG, () -> Datatype.subarray(new long[] {4, 4}, new long[] {2, 2}, new long[] {0},
                Order.C, INT), "sizes", "starts");
    }

    @Test
    void missingOldTypeIsErrTypeAndMissingArrayErrArg() {
        assertMpiError(ERR_TYPE, () -> Datatype.contiguous(1, null), "old");
        assertMpiError(ERR_TYPE, () -> Datatype.vector(1, 1, 1, null), "old");
        assertMpiError(ERR_TYPE, () -> Datatype.resized(0, 4, null), "old");
        assertMpiError(ERR_TYPE, () -> Datatype.struct(ONE, ZERO, new Datatype[] {null}), "types[0]");
        assertMpiError(ERR_ARG, () -> Datatype.indexed(null, ZERO, INT), "blocklengths");
        assertMpiError(ERR_ARG, () -> Datatype.hindexed(ONE, null, INT), "displacements_bytes");
        assertMpiError(ERR_ARG, () -> Datatype.struct(ONE, ZERO, null), "types");
    }
}
