package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.Put;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/**
 * The point-to-point path alone, against a NIC that records what it is handed: world ranks and
 * match bits on the way in, statuses on the way back, and PROC_NULL never reaching the NIC.
 */
class PointToPointNicTest {
    private static final int CONTEXT = 6;
    private final RecordingNic nic = new RecordingNic();
    private final CommArguments args = new CommArguments(nic, 3);
    /** This rank is rank 1 of a communicator over world ranks 20, 21, 22. */
    private final PointToPoint p2p = new PointToPoint(nic, args, new int[] {20, 21, 22}, 1);
    private final MemorySegment buf = MemorySegment.ofArray(new int[4]);

    @Test
    void aSendGoesToTheWorldRankWithItsMatchBitsAndCompletesWithItsStatus() {
        Request r = p2p.send(CONTEXT, buf, 4, Datatype.INT, 2, 77, args.sendCursor(buf, 0, 4, Datatype.INT));
        assertEquals(1, nic.puts.size());
        Put put = nic.puts.get(0);
        assertEquals(22, put.target());
        assertEquals(MatchBits.of(CONTEXT, 1, 77), put.matchBits());
        assertEquals(16, put.length());
        assertFalse(r.isDone());
        put.completion().completed(new Event(Event.Kind.SEND, put.matchBits(), 16, 16, null, false));
        Status s = r.waitFor();
        assertEquals(2, s.source(), "the destination, in the communicator's ranks");
        assertEquals(77, s.tag());
        assertEquals(16, s.byteCount());
    }

    @Test
    void procNullNeverReachesTheNic() {
        Request s = p2p.send(CONTEXT, buf, 4, Datatype.INT, Comm.PROC_NULL, 1,
                args.sendCursor(buf, 0, 4, Datatype.INT));
        Request r = p2p.receive(CONTEXT, buf, 0, 4, Datatype.INT, Comm.PROC_NULL, 1);
        assertSame(PointToPoint.PROC_NULL_STATUS, s.waitFor());
        assertSame(PointToPoint.PROC_NULL_STATUS, r.waitFor());
        assertTrue(nic.puts.isEmpty() && nic.posts.isEmpty());
    }

    @Test
    void aReceiveIsPostedForItsPeerAndCancelledThroughTheNic() {
        Request r = p2p.receive(CONTEXT, buf, 0, 4, Datatype.INT, 0, Comm.ANY_TAG);
        MatchEntry e = nic.posts.get(0);
        assertEquals(20, e.peer());
        assertEquals(MatchBits.select(CONTEXT, 0, Comm.ANY_TAG), e.matchBits());
        assertEquals(MatchBits.ignore(0, Comm.ANY_TAG), e.ignoreBits());
        r.cancel();
        assertEquals(1, nic.cancels.size());
        assertSame(e, nic.cancels.get(0));
        e.completion().completed(new Event(Event.Kind.RECEIVE, 0, 0, 0, null, true));
        assertTrue(r.waitFor().cancelled());
    }

    @Test
    void aReceiveFromAnySourceTakesItsEnvelopeFromTheMessage() {
        Request r = p2p.receive(CONTEXT, buf, 0, 4, Datatype.INT, Comm.ANY_SOURCE, 5);
        MatchEntry e = nic.posts.get(0);
        assertEquals(-1, e.peer());
        e.completion().completed(new Event(Event.Kind.RECEIVE, MatchBits.of(CONTEXT, 2, 5), 8, 8, null, false));
        Status s = r.waitFor();
        assertEquals(2, s.source());
        assertEquals(5, s.tag());
        assertEquals(8, s.byteCount());
    }

    @Test
    void aReceiveChecksItsBufferBeforePosting() {
        error(ErrorClass.ERR_BUFFER, () -> p2p.receive(CONTEXT, buf, 0, 5, Datatype.INT, 0, 1), "receive buffer");
        error(ErrorClass.ERR_BUFFER, () -> p2p.receiveMatched(new RecordingNic.Taken(0, 0), buf.asReadOnly(), 1,
                Datatype.INT), "read-only");
        assertTrue(nic.posts.isEmpty() && nic.matched.isEmpty());
    }

    @Test
    void aMatchedMessageIsReceivedIntoAnEntryWhoseBitsAreIgnored() {
        RecordingNic.Taken message = new RecordingNic.Taken(0, 0);
        Request r = p2p.receiveMatched(message, buf, 4, Datatype.INT);
        RecordingNic.Matched m = nic.matched.get(0);
        assertSame(message, m.message());
        assertEquals(-1, m.entry().peer());
        m.entry().completion().completed(new Event(Event.Kind.RECEIVE, MatchBits.of(CONTEXT, 0, 3), 4, 4, null,
                false));
        assertEquals(3, r.waitFor().tag());
    }

    @Test
    void aProbeAsksForItsPeerAndBits() {
        ProbeWait w = p2p.probe(CONTEXT, 2, 9, true, false);
        RecordingNic.Probe p = nic.probes.get(0);
        assertEquals(22, p.peer());
        assertEquals(MatchBits.select(CONTEXT, 2, 9), p.match());
        assertTrue(p.take());
        assertFalse(p.blocking());
        assertSame(w, p.listener());
        p.listener().probed(null, null);
        assertNull(w.await());
    }
}
