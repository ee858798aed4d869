package org.jspin.mpi.op;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;

/**
 * A reduction operator ({@code MPI_Op}): combines {@code count} elements of {@code in} into
 * {@code inout}, element by element ({@code inout[i] = in[i] op inout[i]}). The predefined ones are
 * in {@link Ops}; {@link Ops#user} wraps a user function.
 */
public interface ReduceOp {
    /**
     * Applies the operator.
     *
     * @param in    {@code count} elements of {@code type}, contiguous
     * @param inout {@code count} elements of {@code type}, contiguous; overwritten with the result
     */
    void apply(MemorySegment in, MemorySegment inout, long count, Datatype type);

    /** @return whether operands may be combined in any order (collectives may then reorder) */
    boolean commutative();

    /** @return a name for messages */
    String name();
}
