package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Checks the per-rank blocks of a collective's buffer (gather, scatter, all-to-all and their
 * v and w forms): every block a rank will read or write, before anything is sent.
 */
final class BlockArguments {
    private final CommArguments arguments;
    private final int size;

    BlockArguments(CommArguments arguments) {
        this.arguments = arguments;
        this.size = arguments.size();
    }

    /**
     * Checks {@code count} elements of {@code type} for every rank, one block after another from
     * the start of {@code buf}, as {@link CommArguments#cursor} checks one block.
     */
    void checkEqual(String what, String side, MemorySegment buf, long count, Datatype type, boolean write) {
        long all = blocks(count, side);
        try {
            arguments.cursor(what, buf, 0, all, type, write, true);
        } catch (MpiException e) {
            if (e.errorClass() != ErrorClass.ERR_COUNT) {
                throw e;
            }
            // the cursor's overflow names count x ranks, a number the caller never passed (found by CallFuzzTest)
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count " + count + " for each of " + size
                    + " ranks: " + e.reason(), e);
        }
    }

    /** Checks one block per rank: {@code counts[i]} elements of {@code type} from {@code displs[i]} extents. */
    void checkVaried(String what, MemorySegment buf, long[] counts, long[] displs, Datatype type, boolean write) {
        checkLengths(counts, displs, what);
        CommArguments.checkCountAndType(0, type);
        for (int i = 0; i < counts.length; i++) {
            checkBlockCount(what, i, counts[i]);
            long origin;
            try {
                origin = Math.multiplyExact(displs[i], type.extent());
            } catch (ArithmeticException e) {
                throw new MpiException(ErrorClass.ERR_ARG, what + " displacement " + displs[i] + " for rank " + i
                        + " times the extent " + type.extent() + " overflows 64 bits");
            }
            arguments.cursor(what + " (rank " + i + ")", buf, origin, counts[i], type, write, true);
        }
    }

    /** Checks one block per rank: {@code counts[i]} elements of {@code types[i]} from byte {@code displs[i]}. */
    void checkTyped(String what, MemorySegment buf, long[] counts, long[] displs, Datatype[] types, boolean write) {
        checkLengths(counts, displs, what);
        if (types == null || types.length != size) {
            throw new MpiException(ErrorClass.ERR_ARG, what + " types must have one entry per rank (" + size
                    + "), got " + (types == null ? "null" : types.length));
        }
        for (int i = 0; i < counts.length; i++) {
            checkBlockCount(what, i, counts[i]);
            if (types[i] == null) {
                throw new MpiException(ErrorClass.ERR_TYPE, what + " type for rank " + i + " must not be null");
            }
            arguments.cursor(what + " (rank " + i + ")", buf, displs[i], counts[i], types[i], write, true);
        }
    }

    /** @return elements in {@code count}-element blocks for every rank, checked for overflow */
    private long blocks(long count, String what) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count must be non-negative, got " + count);
        }
        try {
            return Math.multiplyExact(count, (long) size);
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count " + count + " for each of " + size
                    + " ranks overflows 64 bits");
        }
    }

    private static void checkBlockCount(String what, int i, long count) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count for rank " + i
                    + " must be non-negative, got " + count);
        }
    }

    private void checkLengths(long[] counts, long[] displs, String what) {
        if (counts == null || displs == null || counts.length != size || displs.length != size) {
            throw new MpiException(ErrorClass.ERR_ARG, what + " counts and displacements must have one entry per rank ("
                    + size + "), got " + (counts == null ? "null" : counts.length) + " and "
                    + (displs == null ? "null" : displs.length));
        }
    }
}
