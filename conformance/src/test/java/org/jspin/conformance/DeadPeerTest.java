package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.op.Ops;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rank that fails never leaves the others hanging: whatever a survivor is blocked in that needs
 * the dead rank fails with ERR_PROC_FAILED, and the job ends with the dead rank's error, well
 * within its timeout.
 */
class DeadPeerTest {
    private static final String DEATH = "the rank dies on purpose";
    private static final long WITHIN_NANOS = 20_000_000_000L;

    /** What the survivor is blocked in when (or before) the peer dies. */
    enum Blocked { RECV_FROM_PEER, RECV_ANY_SOURCE, PROBE, MPROBE, RENDEZVOUS_SEND, WAIT_ALL, BARRIER, ALLREDUCE }

    static Stream<Arguments> cases() {
        return Targets.all().stream().flatMap(t -> Stream.of(Blocked.values()).flatMap(b -> Stream.of(false, true)
                .map(late -> Arguments.of(Named.of(t.toString(), t), b,
                        Named.of(late ? "after the death is known" : "before the death is known", late)))));
    }

    @ParameterizedTest(name = "{0} {1} blocked {2}")
    @MethodSource("cases")
    void survivorFailsWithProcFailed(Target target, Blocked blocked, boolean late) {
        // ALLREDUCE on three ranks (rank 2 dies): both survivors must fail
        int n = blocked == Blocked.ALLREDUCE ? 3 : 2;
        int dead = n - 1;
        long start = System.nanoTime();
        MpiException thrown = assertThrows(MpiException.class, () -> target.run(n, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == dead) {
                throw new IllegalStateException(DEATH);
            }
            if (late) {
                Thread.sleep(200); // by now the death has been announced
            }
            try {
                block(w, blocked, dead);
            } catch (MpiException e) {
                // checked by the survivor itself (it may be another process): a wrong class fails this rank
                assertEquals(ErrorClass.ERR_PROC_FAILED, e.errorClass(), "rank " + w.rank() + ": " + e);
                throw e;
            }
            throw new AssertionError(blocked + " returned although rank " + dead + " is dead");
        }));
        long took = System.nanoTime() - start;
        assertTrue(took < WITHIN_NANOS, "the job took " + took / 1_000_000 + " ms to fail");
        assertEquals(ErrorClass.ERR_OTHER, thrown.errorClass(), "the first failure is the dead rank's: " + thrown);
        assertTrue(thrown.getMessage().contains(DEATH), thrown.getMessage());
        assertTrue(thrown.reason().startsWith("rank " + dead + ": "), thrown.reason());
        // every survivor failed, with ERR_PROC_FAILED, and the job reports it (suppressed on the first failure)
        for (int r = 0; r < dead; r++) {
            String prefix = "rank " + r + ": ";
            List<MpiException> survivor = Arrays.stream(thrown.getSuppressed())
                    .filter(t -> t instanceof MpiException m && m.reason().startsWith(prefix))
                    .map(MpiException.class::cast).toList();
            assertEquals(1, survivor.size(), "rank " + r + " saw no error, or more than one: "
                    + Arrays.toString(thrown.getSuppressed()));
            assertEquals(ErrorClass.ERR_PROC_FAILED, survivor.getFirst().errorClass(), "rank " + r + ": " + survivor);
        }
    }

    private static void block(Comm w, Blocked blocked, int dead) {
        MemorySegment buf = MemorySegment.ofArray(new byte[1 << 20]);
        switch (blocked) {
            case RECV_FROM_PEER -> w.recv(buf, 16, Datatype.BYTE, dead, 0);
            case RECV_ANY_SOURCE -> w.recv(buf, 16, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
            case PROBE -> w.probe(dead, Comm.ANY_TAG);
            case MPROBE -> w.mprobe(dead, 3);
            case RENDEZVOUS_SEND -> w.send(buf, 1 << 20, Datatype.BYTE, dead, 0);
            case WAIT_ALL -> Request.waitAll(w.irecv(buf.asSlice(0, 8), 8, Datatype.BYTE, dead, 1),
                    w.isend(buf.asSlice(8, 8), 8, Datatype.BYTE, dead, 1));
            case BARRIER -> w.barrier();
            case ALLREDUCE -> w.allreduce(MemorySegment.ofArray(new long[] {1}), MemorySegment.ofArray(new long[1]), 1,
                    Datatype.LONG, Ops.SUM);
        }
    }
}
