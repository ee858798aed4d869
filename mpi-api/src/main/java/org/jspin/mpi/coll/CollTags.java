package org.jspin.mpi.coll;

/**
 * Tags of the collectives on a collective context. Every rank calls collectives in the same order
 * and messages between two ranks do not overtake, so one tag per kind keeps successive calls apart.
 */
final class CollTags {
    static final int BARRIER = 1;
    static final int BCAST = 2;
    static final int REDUCE = 3;
    static final int ALLREDUCE = 4;
    static final int GATHER = 5;
    static final int SCATTER = 6;
    static final int ALLGATHER = 7;
    static final int ALLTOALL = 8;

    private CollTags() {
    }
}
