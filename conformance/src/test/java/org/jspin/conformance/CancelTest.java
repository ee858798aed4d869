package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Cancelling a posted receive that has not matched; cancelling one that has matched changes nothing. */
class CancelTest {
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void unmatchedReceiveIsCancelledAndTakesNoLaterMessage(Target target, NicConfig nic) {
        long size = 2L * Targets.chunkSize(nic) + 1; // rendezvous in every setting
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                w.barrier(); // rank 0 has cancelled
                w.send(Bytes.pattern(size, 3), size, Datatype.BYTE, 0, 11);
                w.send(Bytes.pattern(16, 4), 16, Datatype.BYTE, 0, 11);
                return;
            }
            MemorySegment buf = Bytes.sentinels(size);
            Request r = w.irecv(buf, size, Datatype.BYTE, 1, 11);
            Request any = w.irecv(buf, size, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
            r.cancel();
            any.cancel();
            Status s = r.waitFor();
            assertTrue(s.cancelled(), "a receive nothing matched is cancelled: " + s);
            assertTrue(any.waitFor().cancelled(), "so is a wildcard one");
            assertTrue(r.isDone());
            r.cancel(); // again: no effect, no error
            w.barrier();
            MemorySegment fresh = MemorySegment.ofArray(new byte[(int) size]);
            Status got = w.recv(fresh, size, Datatype.BYTE, 1, 11);
            assertEquals(size, got.byteCount(), "the first message went to the new receive");
            Bytes.assertSameBytes(Bytes.pattern(size, 3), fresh, "message after the cancel");
            Bytes.assertSameBytes(Bytes.sentinels(size), buf, "a cancelled receive's buffer is untouched");
            MemorySegment second = MemorySegment.ofArray(new byte[16]);
            w.recv(second, 16, Datatype.BYTE, 1, 11);
            Bytes.assertSameBytes(Bytes.pattern(16, 4), second, "second message");
        });
    }

    /**
     * A receive posted when its message is already there matches at once: a cancel right after
     * (or after completion) has no effect, for eager and rendezvous messages; cancelling a send
     * does not stop it either.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void cancelAfterMatchHasNoEffect(Target target, NicConfig nic) {
        long[] sizes = {8, Targets.eagerLimit(nic) + 1L, 3L * Targets.chunkSize(nic)};
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            for (int i = 0; i < sizes.length; i++) {
                long size = sizes[i];
                if (w.rank() == 1) {
                    Request s = w.isend(Bytes.pattern(size, i), size, Datatype.BYTE, 0, 30 + i);
                    s.cancel(); // sends are not cancelled: it still arrives
                    s.waitFor();
                    continue;
                }
                w.probe(1, 30 + i); // the message (or its RTS) is here, unexpected
                MemorySegment buf = MemorySegment.ofArray(new byte[(int) size]);
                Request r = w.irecv(buf, size, Datatype.BYTE, 1, 30 + i);
                r.cancel(); // the receive matched when it was posted
                Status s = r.waitFor();
                assertFalse(s.cancelled(), "cancel after the match: " + s);
                assertEquals(size, s.byteCount());
                Bytes.assertSameBytes(Bytes.pattern(size, i), buf, "message " + i);
                r.cancel();
                assertFalse(r.waitFor().cancelled(), "cancel after completion");
            }
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        });
    }
}
