package org.jspin.error;

/**
 * MPI-style error classes, shared by every jspin layer (datatype engine, NIC SPI, MPI API).
 *
 * <p>The names follow the MPI standard's {@code MPI_ERR_*} classes; {@link #ERR_PROC_FAILED} is the
 * process-failure class of MPI 4's fault-tolerance proposal (ULFM).
 */
public enum ErrorClass {
    /** Invalid buffer: too small for the type map, or unusable. */
    ERR_BUFFER,
    /** Invalid count argument (negative, or too large). */
    ERR_COUNT,
    /** Invalid datatype: uncommitted, mismatched signature, or malformed. */
    ERR_TYPE,
    /** Invalid tag. */
    ERR_TAG,
    /** Invalid communicator. */
    ERR_COMM,
    /** Invalid rank. */
    ERR_RANK,
    /** Invalid root. */
    ERR_ROOT,
    /** Invalid reduction operation. */
    ERR_OP,
    /** Invalid topology. */
    ERR_TOPOLOGY,
    /** Invalid dimension argument. */
    ERR_DIMS,
    /** Invalid argument of another kind. */
    ERR_ARG,
    /** Message truncated on receive. */
    ERR_TRUNCATE,
    /** Invalid request. */
    ERR_REQUEST,
    /** A peer process failed. */
    ERR_PROC_FAILED,
    /** Internal error: a bug in jspin. */
    ERR_INTERN,
    /** Known error not in this list. */
    ERR_OTHER
}
