package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.jspin.mpi.Expect.patterned;
import static org.jspin.mpi.Expect.untouched;
import static org.jspin.mpi.Expect.within;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.api.Test;

/**
 * Every argument of the point-to-point calls is checked before anything is sent, posted or
 * written: each bad call throws the MPI error class naming the value, and afterwards the peer
 * receives exactly the one good message that follows (so no bad send went out and no bad receive
 * was posted to steal it) and the receive buffers still hold their pattern.
 */
class PointToPointBadInputTest {
    private static final int TAG = 99;
    private static final int MARKER = 4242;

    /** One way of sending: isend, send, or the send half of sendrecv (whose receive half is valid). */
    @FunctionalInterface
    private interface SendCall {
        void call(Comm c, MemorySegment buf, long count, Datatype type, int dest, int tag);
    }

    /** One way of receiving: irecv, recv, or the receive half of sendrecv (whose send half is valid). */
    @FunctionalInterface
    private interface RecvCall {
        void call(Comm c, MemorySegment buf, long count, Datatype type, int source, int tag);
    }

    private record Named<T>(String name, T call) {
    }

    private static List<Named<SendCall>> sends() {
        return List.of(
                new Named<>("isend", (SendCall) (c, b, n, t, d, g) -> c.isend(b, n, t, d, g)),
                new Named<>("send", (SendCall) (c, b, n, t, d, g) -> c.send(b, n, t, d, g)),
                // the receive half would take the marker if it were posted
                new Named<>("sendrecv", (SendCall) (c, b, n, t, d, g) -> c.sendrecv(b, n, t, d, g,
                        MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1 - c.rank(), Comm.ANY_TAG)));
    }

    private static List<Named<RecvCall>> receives() {
        return List.of(
                new Named<>("irecv", (RecvCall) (c, b, n, t, s, g) -> c.irecv(b, n, t, s, g)),
                new Named<>("recv", (RecvCall) (c, b, n, t, s, g) -> c.recv(b, n, t, s, g)),
                // the send half would reach the peer's marker receive first if it went out
                new Named<>("sendrecv", (RecvCall) (c, b, n, t, s, g) -> c.sendrecv(
                        MemorySegment.ofArray(new int[] {-1}), 1, Datatype.INT, 1 - c.rank(), TAG, b, n, t, s, g)));
    }

    @Test
    void badArgumentsSendAndPostNothingAndWriteNothing() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            int peer = 1 - w.rank();
            Datatype uncommitted = Datatype.vector(2, 1, 2, Datatype.INT);
            Datatype wideVector = Datatype.vector(4, 1, 4, Datatype.INT).commit(); // extent 52 bytes
            MemorySegment ok = MemorySegment.ofArray(new int[8]);
            MemorySegment closed;
            try (Arena a = Arena.ofShared()) {
                closed = a.allocate(64);
            }
            try (Arena confinedArena = Arena.ofConfined()) {
                MemorySegment confined = confinedArena.allocate(64);

                for (Named<SendCall> s : sends()) {
                    SendCall send = s.call();
                    error(ErrorClass.ERR_RANK, () -> send.call(w, ok, 1, Datatype.INT, 2, TAG), "2");
                    error(ErrorClass.ERR_RANK, () -> send.call(w, ok, 1, Datatype.INT, -5, TAG), "-5");
                    error(ErrorClass.ERR_RANK, () -> send.call(w, ok, 1, Datatype.INT, Comm.ANY_SOURCE, TAG), "-1");
                    error(ErrorClass.ERR_TAG, () -> send.call(w, ok, 1, Datatype.INT, peer, -7), "-7");
                    error(ErrorClass.ERR_TAG, () -> send.call(w, ok, 1, Datatype.INT, peer, Comm.ANY_TAG), "-1");
                    error(ErrorClass.ERR_COUNT, () -> send.call(w, ok, -3, Datatype.INT, peer, TAG), "-3");
                    error(ErrorClass.ERR_TYPE, () -> send.call(w, ok, 1, null, peer, TAG), "null");
                    error(ErrorClass.ERR_TYPE, () -> send.call(w, ok, 1, uncommitted, peer, TAG), "not committed");
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, null, 1, Datatype.INT, peer, TAG), "null");
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, ok, 9, Datatype.INT, peer, TAG), "32", "36");
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, MemorySegment.ofArray(new int[12]), 1, wideVector,
                            peer, TAG), "48", "52");
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, closed, 1, Datatype.INT, peer, TAG), "closed");
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, confined, 1, Datatype.INT, peer, TAG), "confined");
                    // PROC_NULL moves nothing, but its arguments are checked all the same
                    error(ErrorClass.ERR_BUFFER, () -> send.call(w, ok, 9, Datatype.INT, Comm.PROC_NULL, TAG), "36");
                    error(ErrorClass.ERR_COUNT, () -> send.call(w, ok, -1, Datatype.INT, Comm.PROC_NULL, TAG), "-1");
                }

                List<MemorySegment> watched = new ArrayList<>();
                for (Named<RecvCall> r : receives()) {
                    RecvCall recv = r.call();
                    MemorySegment buf = patterned(32);
                    watched.add(buf);
                    error(ErrorClass.ERR_RANK, () -> recv.call(w, buf, 1, Datatype.INT, 2, TAG), "2");
                    error(ErrorClass.ERR_RANK, () -> recv.call(w, buf, 1, Datatype.INT, -5, Comm.ANY_TAG), "-5");
                    error(ErrorClass.ERR_TAG, () -> recv.call(w, buf, 1, Datatype.INT, peer, -7), "-7");
                    error(ErrorClass.ERR_COUNT, () -> recv.call(w, buf, -3, Datatype.INT, peer, TAG), "-3");
                    error(ErrorClass.ERR_TYPE, () -> recv.call(w, buf, 1, null, peer, Comm.ANY_TAG), "null");
                    error(ErrorClass.ERR_TYPE, () -> recv.call(w, buf, 1, uncommitted, peer, TAG), "not committed");
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, null, 1, Datatype.INT, peer, TAG), "null");
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, buf, 9, Datatype.INT, peer, Comm.ANY_TAG), "32",
                            "36");
                    MemorySegment narrow = patterned(48);
                    watched.add(narrow);
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, narrow, 1, wideVector, Comm.ANY_SOURCE, TAG), "48",
                            "52");
                    MemorySegment readOnly = patterned(32).asReadOnly();
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, readOnly, 1, Datatype.INT, peer, TAG), "read-only");
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, closed, 1, Datatype.INT, peer, TAG), "closed");
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, confined, 1, Datatype.INT, peer, TAG), "confined");
                    error(ErrorClass.ERR_BUFFER, () -> recv.call(w, readOnly, 1, Datatype.INT, Comm.PROC_NULL, TAG),
                            "read-only");
                }

                // a read-only buffer is fine to send from, and an empty read-only one to receive into
                MemorySegment marker = MemorySegment.ofArray(new int[] {MARKER}).asReadOnly();
                int[] got = new int[1];
                Request in = w.irecv(MemorySegment.ofArray(got), 1, Datatype.INT, peer, Comm.ANY_TAG);
                w.send(marker, 1, Datatype.INT, peer, TAG);
                Status s = within(in, 20, "the marker receive (a bad receive was posted and took it?)");
                assertEquals(TAG, s.tag(), "the first message from the peer is the marker: no bad send went out");
                assertEquals(MARKER, got[0]);
                assertEquals(4, s.byteCount());
                w.recv(MemorySegment.ofArray(new byte[0]).asReadOnly(), 0, Datatype.INT, Comm.PROC_NULL, TAG);
                for (MemorySegment b : watched) {
                    untouched(b, "a receive buffer a bad call was given");
                }
                w.barrier();
                assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "a bad call left a message behind");
            }
        });
    }

    @Test
    void probesCheckSourceAndTag() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            int peer = 1 - w.rank();
            error(ErrorClass.ERR_RANK, () -> w.iprobe(2, 0), "2");
            error(ErrorClass.ERR_RANK, () -> w.probe(-4, 0), "-4");
            error(ErrorClass.ERR_RANK, () -> w.mprobe(7, Comm.ANY_TAG), "7");
            error(ErrorClass.ERR_RANK, () -> w.improbe(2, 0), "2");
            error(ErrorClass.ERR_TAG, () -> w.iprobe(peer, -2), "-2");
            error(ErrorClass.ERR_TAG, () -> w.probe(peer, -3), "-3");
            error(ErrorClass.ERR_TAG, () -> w.mprobe(Comm.ANY_SOURCE, -9), "-9");
            error(ErrorClass.ERR_TAG, () -> w.improbe(peer, Integer.MIN_VALUE), Integer.toString(Integer.MIN_VALUE));
            // PROC_NULL: found at once, with the MPI_PROC_NULL status
            assertEquals(Comm.PROC_NULL, w.probe(Comm.PROC_NULL, Comm.ANY_TAG).source());
            assertEquals(Comm.PROC_NULL, w.iprobe(Comm.PROC_NULL, 3).source());
            w.barrier();
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        });
    }

    @Test
    void matchedMessageRejectsBadBuffersAndStaysReceivable() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(new int[] {1, 2, 3}), 3, Datatype.INT, 1, 5);
                return;
            }
            Message m = w.mprobe(0, 5);
            assertEquals(12, m.status().byteCount());
            MemorySegment small = patterned(8);
            error(ErrorClass.ERR_BUFFER, () -> m.irecv(small, 3, Datatype.INT), "8", "12");
            error(ErrorClass.ERR_BUFFER, () -> m.irecv(patterned(12).asReadOnly(), 3, Datatype.INT), "read-only");
            error(ErrorClass.ERR_COUNT, () -> m.irecv(small, -1, Datatype.INT), "-1");
            error(ErrorClass.ERR_TYPE, () -> m.irecv(small, 1, Datatype.contiguous(2, Datatype.INT)), "not committed");
            error(ErrorClass.ERR_BUFFER, () -> m.irecv(null, 3, Datatype.INT), "null");
            untouched(small, "the buffer a bad matched receive was given");
            int[] got = new int[3];
            Status s = m.recv(MemorySegment.ofArray(got), 3, Datatype.INT);
            assertEquals(3, s.count(Datatype.INT));
            assertEquals(List.of(1, 2, 3), List.of(got[0], got[1], got[2]));

            Message none = w.mprobe(Comm.PROC_NULL, Comm.ANY_TAG);
            error(ErrorClass.ERR_COUNT, () -> none.irecv(small, -2, Datatype.INT), "-2");
            assertEquals(Comm.PROC_NULL, none.recv(small, 0, Datatype.INT).source());
        });
    }
}
