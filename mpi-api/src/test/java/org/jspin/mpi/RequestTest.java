package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.jspin.mpi.Expect.within;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** Requests: wait and test semantics on real operations, the future view, heap buffers, bad requests. */
class RequestTest {
    private static final int GO = 100;

    @Test
    void waitTestWaitAnyTestSomeTestAllWaitAll() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                w.send(MemorySegment.ofArray(new int[] {22}), 1, Datatype.INT, 0, 2);
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                w.send(MemorySegment.ofArray(new int[] {11}), 1, Datatype.INT, 0, 1);
                w.send(MemorySegment.ofArray(new int[] {33, 34}), 2, Datatype.INT, 0, 3);
                return;
            }
            int[] a = new int[1];
            int[] b = new int[1];
            int[] c = new int[2];
            Request ra = w.irecv(MemorySegment.ofArray(a), 1, Datatype.INT, 1, 1);
            Request rb = w.irecv(MemorySegment.ofArray(b), 1, Datatype.INT, 1, 2);
            Request rc = w.irecv(MemorySegment.ofArray(c), 2, Datatype.INT, Comm.ANY_SOURCE, 3);
            assertNull(ra.test());
            assertFalse(ra.isDone());
            assertNull(Request.testAll(ra, rb, rc));
            assertArrayEquals(new int[0], Request.testSome(ra, rb, rc));

            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
            assertEquals(1, Request.waitAny(ra, rb, rc), "only the tag-2 message was sent");
            assertEquals(22, b[0]);
            assertArrayEquals(new int[] {1}, Request.testSome(ra, rb, rc));
            assertNull(Request.testAll(ra, rb, rc));
            Status sb = rb.test();
            assertNotNull(sb);
            assertEquals(2, sb.tag());
            assertSame(sb, rb.waitFor(), "a completed request answers with the same status");

            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
            Status[] all = Request.waitAll(ra, rb, rc);
            assertEquals(List.of(1, 2, 3), List.of(all[0].tag(), all[1].tag(), all[2].tag()));
            assertEquals(1, all[2].source());
            assertEquals(8, all[2].byteCount());
            assertEquals(2, all[2].count(Datatype.INT));
            assertEquals(11, a[0]);
            assertArrayEquals(new int[] {33, 34}, c);
            assertNotNull(Request.testAll(ra, rb, rc));
            assertArrayEquals(new int[] {0, 1, 2}, Request.testSome(ra, rb, rc));
            assertEquals(0, Request.waitAll().length);
            assertEquals(0, Request.testAll().length);

            // a receive that never matches can be cancelled; a PROC_NULL one is done at once
            Request never = w.irecv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, 999);
            never.cancel();
            assertTrue(within(never, 10, "the cancelled receive").cancelled());
            Request nothing = w.irecv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, Comm.PROC_NULL, 0);
            assertTrue(nothing.isDone());
            assertEquals(Comm.PROC_NULL, nothing.waitFor().source());
        });
    }

    @Test
    void badRequestArgumentsAndMessagesReceivedTwice() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                w.send(MemorySegment.ofArray(new int[] {9}), 1, Datatype.INT, 0, 7);
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                return;
            }
            Request pending = w.irecv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO + 1);
            // the null is found before any waiting (the pending receive would block forever)
            error(ErrorClass.ERR_REQUEST, () -> Request.waitAll(pending, null), "1");
            error(ErrorClass.ERR_REQUEST, () -> Request.waitAny(pending, null), "1");
            error(ErrorClass.ERR_REQUEST, () -> Request.testAll(null, pending), "0");
            error(ErrorClass.ERR_REQUEST, () -> Request.testSome(pending, pending, null), "2");
            error(ErrorClass.ERR_ARG, Request::waitAny, "none");
            error(ErrorClass.ERR_ARG, () -> Request.waitAny((Request[]) null), "null");
            error(ErrorClass.ERR_ARG, () -> Request.waitAll((Request[]) null), "null");
            error(ErrorClass.ERR_ARG, () -> Request.waitAll((List<Request>) null), "null");
            error(ErrorClass.ERR_ARG, () -> Request.testAll((Request[]) null), "null");
            error(ErrorClass.ERR_ARG, () -> Request.testSome((Request[]) null), "null");
            pending.cancel();
            assertTrue(pending.waitFor().cancelled());

            Message m = w.mprobe(1, 7);
            int[] got = new int[1];
            assertEquals(4, m.recv(MemorySegment.ofArray(got), 1, Datatype.INT).byteCount());
            assertEquals(9, got[0]);
            error(ErrorClass.ERR_REQUEST, () -> m.recv(MemorySegment.ofArray(got), 1, Datatype.INT), "received");
            error(ErrorClass.ERR_REQUEST, () -> m.irecv(MemorySegment.ofArray(got), 1, Datatype.INT), "received");
            Message none = w.improbe(Comm.PROC_NULL, 0);
            none.recv(MemorySegment.ofArray(got), 1, Datatype.INT);
            error(ErrorClass.ERR_REQUEST, () -> none.recv(MemorySegment.ofArray(got), 1, Datatype.INT), "received");
            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
        });
    }

    private static final class ThreadSeen {
        final AtomicReference<String> name = new AtomicReference<>();

        Status record(Status s) {
            name.set(Thread.currentThread().getName());
            return s;
        }
    }

    @Test
    void futureViewCompletesOffTheProgressThread() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                w.send(MemorySegment.ofArray(new int[] {1, 2, 3, 4}), 4, Datatype.INT, 0, 1);
                w.send(MemorySegment.ofArray(new int[] {5, 6, 7, 8}), 4, Datatype.INT, 0, 2); // too long
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                return;
            }
            int[] ok = new int[4];
            int[] shortBuf = {-1, -1, -1, -1};
            Request r1 = w.irecv(MemorySegment.ofArray(ok), 4, Datatype.INT, 1, 1);
            // the truncated receive holds one int; the three after it in the array are outside its type map
            Request r2 = w.irecv(MemorySegment.ofArray(shortBuf).asSlice(0, 4), 1, Datatype.INT, 1, 2);
            ThreadSeen seen1 = new ThreadSeen();
            ThreadSeen seen2 = new ThreadSeen();
            CompletableFuture<Status> f1 = r1.toFuture();
            CompletableFuture<Status> dep1 = f1.thenApply(seen1::record);
            CompletableFuture<Status> f2 = r2.toFuture();
            CompletableFuture<Object> dep2 = f2.handle((s, e) -> {
                seen2.record(s);
                return e;
            });
            assertFalse(f1.isDone());
            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);

            Status s1 = dep1.get(20, TimeUnit.SECONDS);
            assertEquals(16, s1.byteCount());
            assertEquals(1, s1.tag());
            assertArrayEquals(new int[] {1, 2, 3, 4}, ok);
            assertSame(s1, f1.get());

            Object e2 = dep2.get(20, TimeUnit.SECONDS);
            Throwable cause = e2 instanceof java.util.concurrent.CompletionException ce ? ce.getCause() : (Throwable) e2;
            MpiException trunc = assertInstanceOf(MpiException.class, cause);
            assertEquals(ErrorClass.ERR_TRUNCATE, trunc.errorClass());
            assertTrue(trunc.getMessage().contains("16"), trunc.getMessage());
            ExecutionException ee = assertThrows(ExecutionException.class, () -> f2.get(1, TimeUnit.SECONDS));
            assertEquals(ErrorClass.ERR_TRUNCATE, ((MpiException) ee.getCause()).errorClass());
            error(ErrorClass.ERR_TRUNCATE, r2::waitFor, "16");
            assertArrayEquals(new int[] {5, -1, -1, -1}, shortBuf, "nothing written past the receive's type map");

            for (ThreadSeen t : List.of(seen1, seen2)) {
                assertNotNull(t.name.get());
                assertFalse(t.name.get().startsWith("jspin-progress"), "a dependent stage ran on " + t.name.get());
                assertFalse(t.name.get().startsWith("rank-"), "a dependent stage ran on the rank's thread "
                        + t.name.get());
            }
            // the view of a request complete already, and of a PROC_NULL one
            assertSame(s1, r1.toFuture().get(10, TimeUnit.SECONDS));
            Request nul = w.isend(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, Comm.PROC_NULL, 0);
            assertEquals(Comm.PROC_NULL, nul.toFuture().get(10, TimeUnit.SECONDS).source());
            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
        });
    }

    @Test
    void heapArraysStayValidInNonblockingCallsAcrossGc() {
        int[] sizes = {3, 1000, 300_000}; // eager, eager, rendezvous (1.2 MB in chunks)
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                Request[] sends = new Request[sizes.length];
                for (int k = 0; k < sizes.length; k++) {
                    int[] data = new int[sizes[k]];
                    for (int i = 0; i < data.length; i++) {
                        data[i] = i * 31 + k;
                    }
                    // only the request refers to the array from here on
                    sends[k] = w.isend(MemorySegment.ofArray(data), sizes[k], Datatype.INT, 1, k);
                }
                gc();
                w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
                gc();
                Request.waitAll(sends);
                return;
            }
            w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
            Request[] recvs = new Request[sizes.length];
            List<WeakReference<int[]>> arrays = new java.util.ArrayList<>();
            for (int k = sizes.length - 1; k >= 0; k--) {
                int[] into = new int[sizes[k]];
                arrays.addFirst(new WeakReference<>(into));
                recvs[k] = w.irecv(MemorySegment.ofArray(into), sizes[k], Datatype.INT, 0, k);
            }
            gc();
            Status[] st = Request.waitAll(recvs);
            for (int k = 0; k < sizes.length; k++) {
                int[] into = arrays.get(k).get();
                assertNotNull(into, "the request let its receive array be collected");
                assertEquals(4L * sizes[k], st[k].byteCount());
                for (int i = 0; i < into.length; i++) {
                    if (into[i] != i * 31 + k) {
                        throw new AssertionError("message " + k + ", element " + i + ": " + into[i]);
                    }
                }
            }
            assertEquals(sizes.length, recvs.length); // the requests stay reachable to here
        });
    }

    @Test
    void waitingThreadsCanBeInterrupted() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 1) {
                w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 0, GO);
                return;
            }
            Request never = w.irecv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, 5);
            Request never2 = w.irecv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, 6);
            List<Runnable> waits = List.of(never::waitFor, () -> Request.waitAll(never, never2),
                    () -> Request.waitAny(never, never2), () -> w.probe(1, 5), () -> w.mprobe(1, 6),
                    () -> w.recv(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, 5));
            for (Runnable wait : waits) {
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
                Thread t = Thread.ofPlatform().name("waiter").start(() -> {
                    try {
                        wait.run();
                    } catch (Throwable e) {
                        thrown.set(e);
                        stillInterrupted.set(Thread.currentThread().isInterrupted());
                    }
                });
                Thread.sleep(100);
                t.interrupt();
                t.join(10_000);
                assertFalse(t.isAlive(), "an interrupted waiter kept waiting");
                MpiException e = assertInstanceOf(MpiException.class, thrown.get());
                assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
                assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
                assertTrue(stillInterrupted.get(), "the interrupt status is kept");
            }
            never.cancel();
            never2.cancel();
            assertTrue(never.waitFor().cancelled());
            assertTrue(never2.waitFor().cancelled());
            w.send(MemorySegment.ofArray(new int[1]), 1, Datatype.INT, 1, GO);
        });
    }

    private static void gc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }

    @Test
    void waitAnyWithoutANicParksUntilAnotherThreadCompletesOne() throws InterruptedException {
        Request never = new Request(null, null, null);
        Request later = new Request(null, null, null);
        Thread completer = Thread.ofPlatform().start(() -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            later.complete(new Status(3, 7, 0, null, false));
        });
        assertEquals(1, Request.waitAny(never, later));
        assertEquals(7, later.test().tag());
        assertFalse(never.isDone());
        completer.join();
    }
}
