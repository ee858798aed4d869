package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.mpi.trace.Tracer;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.Put;
import org.jspin.nic.match.MatchBits;

/**
 * The one path every send, receive and probe of a communicator takes to the NIC, in either of its
 * contexts: ranks become world ranks and match bits, completions become {@link Status}es.
 * Callers have checked ranks and tags; buffers are checked here, before anything is posted.
 * A traced rank's sends and receives are recorded here, and their requests carry their labels.
 */
final class PointToPoint {
    /** The status of every operation on {@link Comm#PROC_NULL}, which completes at once. */
    static final Status PROC_NULL_STATUS = new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0, null, false);

    private final Nic nic;
    private final CommArguments arguments;
    private final int[] worldRanks;
    private final int rank;
    private final Tracer tracer;

    /** @param worldRanks the world rank of each rank of the communicator; {@code rank} is this one's */
    PointToPoint(Nic nic, CommArguments arguments, int[] worldRanks, int rank) {
        this(nic, arguments, worldRanks, rank, null);
    }

    /** @param tracer records this rank's operations, or null (untraced) */
    PointToPoint(Nic nic, CommArguments arguments, int[] worldRanks, int rank, Tracer tracer) {
        this.nic = nic;
        this.arguments = arguments;
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.tracer = tracer;
    }

    /** Starts a send whose arguments {@code cursor} was checked from (a PROC_NULL one completes at once). */
    Request send(int context, MemorySegment buf, long count, Datatype type, int dest, int tag, TypeCursor cursor) {
        return send(context, buf, count, type, dest, tag, cursor, false);
    }

    /** As {@link #send(int, MemorySegment, long, Datatype, int, int, TypeCursor)}; {@code blocking}: MPI_Send's, waited for at once. */
    Request send(int context, MemorySegment buf, long count, Datatype type, int dest, int tag, TypeCursor cursor,
                 boolean blocking) {
        if (dest == Comm.PROC_NULL) {
            return Request.completed(PROC_NULL_STATUS);
        }
        Request req = new Request(nic, buf, null);
        Tracer t = tracer;
        if (t != null) {
            req.traced(t, t.send(blocking, worldRanks[dest], tag, context, count, type), null);
        }
        long bits = MatchBits.of(context, rank, tag);
        nic.put(new Put(worldRanks[dest], bits, buf, count, type, cursor,
                e -> req.complete(new Status(dest, tag, e.deliveredBytes(), e.error(), false))));
        if (t != null) {
            t.started();
        }
        return req;
    }

    /** Checks the buffer, then posts a receive (one from PROC_NULL completes at once). */
    Request receive(int context, MemorySegment buf, long origin, long count, Datatype type, int source, int tag) {
        return receive(context, buf, origin, count, type, source, tag, false);
    }

    /** As {@link #receive(int, MemorySegment, long, long, Datatype, int, int)}; {@code blocking}: MPI_Recv's, waited for at once. */
    Request receive(int context, MemorySegment buf, long origin, long count, Datatype type, int source, int tag,
                    boolean blocking) {
        TypeCursor cursor = arguments.receiveCursor(buf, origin, count, type);
        if (source == Comm.PROC_NULL) {
            return Request.completed(PROC_NULL_STATUS);
        }
        long match = MatchBits.select(context, source, tag);
        long ignore = MatchBits.ignore(source, tag);
        MatchEntry[] entry = new MatchEntry[1]; // the canceller needs the entry, the entry the request
        Request req = new Request(nic, buf, () -> nic.cancel(entry[0]));
        Tracer t = tracer;
        if (t != null) {
            req.traced(t, t.receive(blocking, peerOf(source), tag, context, count, type), worldRanks);
        }
        entry[0] = new MatchEntry(peerOf(source), match, ignore, buf, count, type, cursor,
                e -> req.complete(receiveStatus(e)));
        nic.post(entry[0]);
        if (t != null) {
            t.started();
        }
        return req;
    }

    /** Checks the buffer, then receives a message a matched probe took. */
    Request receiveMatched(MatchedMessage message, MemorySegment buf, long count, Datatype type) {
        TypeCursor cursor = arguments.receiveCursor(buf, 0, count, type);
        Request req = new Request(nic, buf, null);
        Tracer t = tracer;
        if (t != null) {
            // the probe that took the message is not recorded: the receive names what it matched
            long bits = message.matchBits();
            req.traced(t, t.receive(false, worldRanks[MatchBits.source(bits)], MatchBits.tag(bits), MatchBits.context(bits),
                    count, type), worldRanks);
        }
        MatchEntry entry = new MatchEntry(-1, 0, 0, buf, count, type, cursor, e -> req.complete(receiveStatus(e)));
        nic.receiveMatched(message, entry);
        if (t != null) {
            t.started();
        }
        return req;
    }

    /**
     * Starts a probe of {@code source} (a rank, or ANY_SOURCE) for {@code tag} in {@code context};
     * {@code take}: a matched probe.
     *
     * @return what to wait on for its answer
     */
    ProbeWait probe(int context, int source, int tag, boolean take, boolean wait) {
        ProbeWait w = new ProbeWait(nic);
        nic.probe(peerOf(source), MatchBits.select(context, source, tag), MatchBits.ignore(source, tag), take, wait, w);
        return w;
    }

    static Status receiveStatus(Event e) {
        if (e.cancelled()) {
            return new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, 0, null, true);
        }
        return new Status(MatchBits.source(e.matchBits()), MatchBits.tag(e.matchBits()), e.deliveredBytes(),
                e.error(), false);
    }

    private int peerOf(int source) {
        return source == Comm.ANY_SOURCE ? -1 : worldRanks[source];
    }
}
