package org.jspin.mpi;

import org.jspin.nic.match.MatchBits;

/** The special rank values of MPI. */
public final class Ranks {
    /** {@code MPI_ANY_SOURCE}: a receive from whichever rank sends first. */
    public static final int ANY_SOURCE = MatchBits.ANY_SOURCE;
    /**
     * {@code MPI_PROC_NULL}: the rank beyond a non-periodic border; sends to it and receives from it
     * complete at once and move nothing.
     */
    public static final int PROC_NULL = -2;

    private Ranks() {
    }
}
