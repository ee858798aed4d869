package org.jspin.datatype.badinput;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;
import static org.jspin.error.ErrorClass.ERR_ARG;
import static org.jspin.error.ErrorClass.ERR_DIMS;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.datatype.testing.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Subarray shapes MPI_Type_create_subarray refuses, in both storage orders. */
class SubarrayErrorsTest {
    private static final Datatype INT = Named.INT;

    private static Datatype subarray(long[] sizes, long[] subsizes, long[] starts, Order order) {
        return Datatype.subarray(sizes, subsizes, starts, order, INT);
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void zeroDimensionsIsErrDims(Order order) {
        assertMpiError(ERR_DIMS, () -> subarray(new long[0], new long[0], new long[0], order), "dimension");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void sizeBelowOneIsErrArg(Order order) {
        assertMpiError(ERR_ARG, () -> subarray(new long[] {4, 0}, new long[] {1, 1}, new long[] {0, 0}, order),
                "sizes[1]", "0");
        assertMpiError(ERR_ARG, () -> subarray(new long[] {-5}, new long[] {1}, new long[] {0}, order),
                "sizes[0]", "-5");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void subsizeAboveSizeIsErrArg(Order order) {
        assertMpiError(ERR_ARG, () -> subarray(new long[] {4, 3}, new long[] {2, 5}, new long[] {0, 0}, order),
                "subsizes[1]", "5");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void subsizeBelowOneIsErrArg(Order order) {
        assertMpiError(ERR_ARG, () -> subarray(new long[] {4, 3}, new long[] {0, 1}, new long[] {0, 0}, order),
                "subsizes[0]", "0");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void negativeStartIsErrArg(Order order) {
        assertMpiError(ERR_ARG, () -> subarray(new long[] {4, 3}, new long[] {2, 2}, new long[] {0, -1}, order),
                "starts[1]", "-1");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void boxReachingPastTheArrayIsErrArg(Order order) {
        // starts + subsizes = 3 + 2 > 4
        assertMpiError(ERR_ARG, () -> subarray(new long[] {4, 3}, new long[] {2, 1}, new long[] {3, 0}, order),
                "starts[0]", "3");
    }
}
