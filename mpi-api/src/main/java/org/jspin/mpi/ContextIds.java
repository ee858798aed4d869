package org.jspin.mpi;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.jspin.nic.match.MatchBits;

/**
 * Hands out communicator context ids that every member agrees on, as MPICH does: each rank offers
 * the mask of ids it has free, an allreduce ANDs the masks over the parent communicator, and all
 * take the lowest id free everywhere. A communicator uses ids {@code 2k} (user messages) and
 * {@code 2k + 1} (its collectives); slot 0 is the world's.
 */
final class ContextIds {
    private static final int SLOTS = (MatchBits.MAX_CONTEXT + 1) / 2;
    private static final int WORDS = SLOTS / 64;
    private static final ReduceOp AND = Ops.user("band", (in, inout, count, type) -> {
        for (long i = 0; i < count; i++) {
            long o = 8 * i;
            inout.set(JAVA_LONG_UNALIGNED, o, in.get(JAVA_LONG_UNALIGNED, o) & inout.get(JAVA_LONG_UNALIGNED, o));
        }
    }, true);

    /** Bit k set: slot k is free on this rank. */
    private final long[] free = new long[WORDS];

    ContextIds() {
        java.util.Arrays.fill(free, -1L);
        free[0] &= ~1L; // the world
    }

    /**
     * Agrees on a new context id with the other members of {@code parent} (collective).
     *
     * @throws MpiException ERR_COMM when every id is in use somewhere
     */
    int allocate(Comm parent) {
        long[] offer;
        synchronized (this) {
            offer = free.clone();
        }
        long[] agreed = new long[WORDS];
        parent.allreduce(MemorySegment.ofArray(offer), MemorySegment.ofArray(agreed), WORDS, Datatype.LONG, AND);
        for (int w = 0; w < WORDS; w++) {
            if (agreed[w] != 0) {
                int slot = 64 * w + Long.numberOfTrailingZeros(agreed[w]);
                synchronized (this) {
                    free[w] &= ~(1L << (slot & 63));
                }
                return 2 * slot;
            }
        }
        throw new MpiException(ErrorClass.ERR_COMM, "no communicator context id is free on every rank of " + parent
                + " (" + SLOTS + " in all)");
    }

    synchronized void release(int contextId) {
        int slot = contextId / 2;
        free[slot / 64] |= 1L << (slot & 63);
    }
}
