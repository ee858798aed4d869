package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.mpi.coll.Transport;

/** A communicator's collective context: its context id plus one, which user messages never use. */
final class CollectiveContext implements Transport {
    private final PointToPoint pointToPoint;
    private final CommArguments arguments;
    private final int context;
    private final int rank;

    /** @param context the collective context id (the communicator's plus one) */
    CollectiveContext(PointToPoint pointToPoint, CommArguments arguments, int context, int rank) {
        this.pointToPoint = pointToPoint;
        this.arguments = arguments;
        this.context = context;
        this.rank = rank;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return arguments.size();
    }

    @Override
    public Request isend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag) {
        TypeCursor cursor = arguments.sendCursor(buf, origin, count, type);
        return pointToPoint.send(context, buf, count, type, dest, tag, cursor);
    }

    @Override
    public Request irecv(MemorySegment buf, long origin, long count, Datatype type, int source, int tag) {
        return pointToPoint.receive(context, buf, origin, count, type, source, tag);
    }
}
