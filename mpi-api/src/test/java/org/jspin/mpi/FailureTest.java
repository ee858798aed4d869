package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.op.Ops;
import org.junit.jupiter.api.Test;

/** A rank that dies, and a job that hangs: peers fail instead of waiting, and nothing lingers. */
class FailureTest {
    @Test
    void aRankThatThrowsFailsThePeersWaitingOnIt() {
        Map<Integer, ErrorClass> seen = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        MpiException e = error(ErrorClass.ERR_OTHER, () -> LocalRanks.run(4, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            try {
                switch (w.rank()) {
                    case 3 -> throw new IllegalStateException("boom on purpose");
                    case 0 -> w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 3, 0);
                    case 1 -> w.send(MemorySegment.ofArray(new int[1 << 20]), 1 << 20, Datatype.INT, 3, 0); // rendezvous
                    default -> w.probe(3, Comm.ANY_TAG);
                }
            } catch (MpiException failed) {
                seen.put(w.rank(), failed.errorClass());
                throw failed;
            }
        }), "rank 3", "boom on purpose");
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "the peers should fail, not wait");
        assertEquals(Map.of(0, ErrorClass.ERR_PROC_FAILED, 1, ErrorClass.ERR_PROC_FAILED, 2,
                ErrorClass.ERR_PROC_FAILED), seen);
        // the first failure is rethrown, the peers' are suppressed on it
        assertEquals(3, e.getSuppressed().length);
        for (Throwable s : e.getSuppressed()) {
            assertEquals(ErrorClass.ERR_PROC_FAILED, assertInstanceOf(MpiException.class, s).errorClass());
            assertTrue(s.getMessage().contains("rank 3"), s.getMessage());
        }
    }

    @Test
    void aRankThatThrowsFailsItsPeersCollectives() {
        Map<Integer, ErrorClass> seen = new ConcurrentHashMap<>();
        MpiException e = error(ErrorClass.ERR_TYPE, () -> LocalRanks.run(3, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                // a bad argument on one rank only: it throws, the others cannot complete without it
                w.allreduce(MemorySegment.ofArray(new int[1]), MemorySegment.ofArray(new int[1]), 1, null, Ops.SUM);
            }
            try {
                w.allreduce(MemorySegment.ofArray(new int[1]), MemorySegment.ofArray(new int[1]), 1, Datatype.INT,
                        Ops.SUM);
            } catch (MpiException failed) {
                seen.put(w.rank(), failed.errorClass());
                throw failed;
            }
        }), "rank 0", "null");
        assertEquals(Map.of(1, ErrorClass.ERR_PROC_FAILED, 2, ErrorClass.ERR_PROC_FAILED), seen);
        assertEquals(2, e.getSuppressed().length);
    }

    @Test
    void aTimeoutNamesItselfAndLeavesNoThreadBehind() throws InterruptedException {
        Set<Thread> before = progressThreads();
        List<Thread> ranks = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        error(ErrorClass.ERR_OTHER, () -> LocalRanks.run(4, MpiOptions.defaults(), 2, mpi -> {
            ranks.add(Thread.currentThread());
            Comm w = mpi.world();
            MemorySegment one = MemorySegment.ofArray(new int[1]);
            switch (w.rank()) {
                case 0 -> { } // done: waits in the closing barrier for the others
                case 1 -> w.recv(one, 1, Datatype.INT, 0, 5); // nobody sends it
                case 2 -> w.probe(Comm.ANY_SOURCE, 6);
                default -> Request.waitAny(w.irecv(one, 1, Datatype.INT, 0, 7), w.irecv(one, 1, Datatype.INT, 1, 7));
            }
        }), "timeout", "2 s");
        long took = System.nanoTime() - start;
        assertTrue(took >= TimeUnit.SECONDS.toNanos(2) && took < TimeUnit.SECONDS.toNanos(10),
                "the run should end at its timeout, took " + took / 1_000_000 + " ms");
        assertEquals(4, ranks.size());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (Thread t : ranks) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            assertFalse(t.isAlive(), t.getName() + " still runs after the timeout: "
                    + Arrays.toString(t.getStackTrace()));
        }
        while (System.nanoTime() < deadline) {
            Set<Thread> left = progressThreads();
            left.removeAll(before);
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(20);
        }
        Set<Thread> left = progressThreads();
        left.removeAll(before);
        assertEquals(Set.of(), left.stream().map(Thread::getName).collect(Collectors.toSet()),
                "progress threads outlive the abandoned job");
    }

    private static Set<Thread> progressThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("jspin-progress"))
                .collect(Collectors.toSet());
    }
}
