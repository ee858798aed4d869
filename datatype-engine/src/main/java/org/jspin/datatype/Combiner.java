package org.jspin.datatype;

/** Which constructor made a datatype: the {@code MPI_COMBINER_*} values of the MPI standard. */
public enum Combiner {
    NAMED, DUP, CONTIGUOUS, VECTOR, HVECTOR, INDEXED, HINDEXED, INDEXED_BLOCK, HINDEXED_BLOCK, STRUCT,
    SUBARRAY, RESIZED
}
