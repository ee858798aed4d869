package org.jspin.mpi.coll;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Request;

/**
 * The point-to-point a collective algorithm runs on: a communicator's collective context, which
 * no user message can match, with buffers addressed by an origin offset (a block of a gather
 * buffer, say). Arguments were checked by the collective's entry point.
 */
public interface Transport {
    /** @return this rank in the communicator */
    int rank();

    /** @return ranks in the communicator */
    int size();

    /** Sends {@code count} elements of {@code type} whose origin is byte {@code origin} of {@code buf}. */
    Request isend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag);

    /** Receives into {@code count} elements of {@code type} whose origin is byte {@code origin} of {@code buf}. */
    Request irecv(MemorySegment buf, long origin, long count, Datatype type, int source, int tag);

    /** Sends and receives at once, waiting for both (deadlock-free pairwise exchange). */
    default void sendrecv(MemorySegment sbuf, long sorigin, long scount, Datatype stype, int dest,
                          MemorySegment rbuf, long rorigin, long rcount, Datatype rtype, int source, int tag) {
        Request r = irecv(rbuf, rorigin, rcount, rtype, source, tag);
        Request s;
        try {
            s = isend(sbuf, sorigin, scount, stype, dest, tag);
        } catch (RuntimeException e) {
            r.cancel(); // the receive must not stay posted for a later collective's message
            throw e;
        }
        Request.waitAll(r, s);
    }
}
