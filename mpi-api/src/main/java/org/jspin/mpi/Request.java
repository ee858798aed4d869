package org.jspin.mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.SleepingIdleStrategy;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.trace.Tracer;
import org.jspin.nic.Nic;

/**
 * A nonblocking operation in progress ({@code MPI_Request}). It holds the operation's buffer
 * strongly until it completes, so a heap array wrapped by {@code MemorySegment.ofArray} stays
 * valid for as long as the NIC may touch it.
 *
 * <p>A failed operation's {@link #waitFor} and {@link #test} throw its {@link MpiException};
 * {@link #waitAll} waits for every request and then throws the first failure. Any thread may wait.
 */
public final class Request {
    /**
     * Where ranks outnumber CPUs (no spinning), how long a waiter yields between rounds before it
     * blocks: a yield hands the CPU to a rank with work at once, where a wake-up would go through
     * the scheduler's queue (measured in docs/one-host.md).
     */
    private static final long YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** Where ranks have CPUs of their own, how long a waiter spins before it yields between rounds. */
    private static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /**
     * The longest a waiter blocks before it looks again by itself: arrivals, commands and
     * completions wake it sooner, so this only bounds a lost wake-up.
     */
    private static final long BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A waiter without a NIC to block in parks {@link #BLOCK_NANOS} at a time (stateless: shared). */
    private static final SleepingIdleStrategy PARK = new SleepingIdleStrategy(BLOCK_NANOS);

    private final Nic nic;
    private final Object buffer;
    private final Runnable canceller;
    private volatile Status status;
    private volatile Thread waiter;
    private CompletableFuture<Status> future;
    // set on a traced rank's requests only; cleared once a wait or test has recorded the completion
    private RequestTrace trace;

    /**
     * @param nic       the NIC that completes the request (a waiter drives it while it spins), or
     *                  null for a request complete from the start
     * @param buffer    the operation's buffer, held until completion
     * @param canceller cancels the operation (receives), or null
     */
    Request(Nic nic, Object buffer, Runnable canceller) {
        this.nic = nic;
        this.buffer = buffer;
        this.canceller = canceller;
    }

    /** @return a request that is complete already (a transfer with PROC_NULL) */
    static Request completed(Status status) {
        Request r = new Request(null, null, null);
        r.status = status;
        return r;
    }

    /**
     * Marks this request as operation {@code label} of {@code tracer}'s trace (label 0: not recorded).
     *
     * @param worldRanks for a receive, the world rank of each rank of its communicator (what matched
     *                   is recorded as a world rank); null for a send
     */
    void traced(Tracer tracer, long label, int[] worldRanks) {
        if (label != 0) {
            trace = new RequestTrace(tracer, label, worldRanks);
        }
    }

    /** @return the tracer of this request's rank, or null (untraced, or its completion recorded already) */
    Tracer tracer() {
        RequestTrace t = trace;
        return t == null ? null : t.tracer();
    }

    /** Records this request's completion in the wait {@code t} is in, once. */
    void traceCompletion(Tracer t) {
        RequestTrace mine = trace;
        if (mine == null || mine.tracer() != t) {
            return; // recorded already, or another rank's
        }
        trace = null;
        mine.completed(status);
    }

    /** Records a test that found this request complete as a wait on it. */
    private void traceTested() {
        Tracer t = tracer();
        if (t != null) {
            t.enterWait();
            traceCompletion(t);
            t.leaveWait();
        }
    }

    /** Called once, by the progress thread, when the operation ends. */
    void complete(Status s) {
        CompletableFuture<Status> f;
        synchronized (this) {
            status = s;
            f = future;
        }
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        if (f != null) {
            completeFuture(f, s);
        }
    }

    /** @return whether the operation has ended (without throwing its error) */
    public boolean isDone() {
        return status != null;
    }

    /**
     * {@code MPI_Wait}: blocks until the operation ends.
     *
     * @return its status
     * @throws MpiException the operation's error, if it failed
     */
    public Status waitFor() {
        Tracer t = tracer();
        if (t != null) {
            t.enterWait();
        }
        Status s = status;
        if (s == null) {
            s = await();
        }
        if (t != null) {
            traceCompletion(t);
            t.leaveWait();
        }
        return checked(s);
    }

    /**
     * {@code MPI_Test}.
     *
     * @return the status if the operation has ended, else null
     * @throws MpiException the operation's error, if it failed
     */
    public Status test() {
        Status s = status;
        if (s == null) {
            return null;
        }
        traceTested();
        return checked(s);
    }

    /**
     * The status without throwing: for a failed operation it carries the error (and, for a
     * truncated receive, the bytes written), as {@code MPI_ERR_IN_STATUS} statuses do.
     *
     * @return the status if the operation has ended, else null
     */
    public Status status() {
        return status;
    }

    /**
     * {@code MPI_Cancel}: cancels a receive that has not matched yet; it then completes with
     * {@link Status#cancelled()}. A receive that has matched, and any send, completes normally.
     */
    public void cancel() {
        if (canceller != null && status == null) {
            canceller.run();
        }
    }

    /**
     * A {@link CompletableFuture} view: completes with the status, or exceptionally with the
     * operation's {@link MpiException}. Dependent stages run on the common pool, never on the
     * NIC's progress thread, so they may call blocking MPI operations.
     */
    public CompletableFuture<Status> toFuture() {
        CompletableFuture<Status> f;
        Status s;
        synchronized (this) {
            if (future == null) {
                future = new CompletableFuture<>();
            }
            f = future;
            s = status;
        }
        if (s != null) {
            completeFuture(f, s);
        }
        return f;
    }

    private static void completeFuture(CompletableFuture<Status> f, Status s) {
        ForkJoinPool.commonPool().execute(() -> {
            if (s.error() != null) {
                f.completeExceptionally(s.error());
            } else {
                f.complete(s);
            }
        });
    }

    private Status await() {
        if (nic == null) {
            return parkUntilDone(); // completed by another thread (a generalized request, say)
        }
        // Drive the NIC ourselves (no hand-off to the progress thread); once idle for the NIC's
        // spin budget, block where an arrival wakes this thread, giving the CPU to the peers
        // (not an Agrona IdleStrategy: these phases are bounded in time, not in rounds, and the wait
        // blocks in the NIC, where an arrival wakes it)
        waiter = Thread.currentThread();
        nic.beginWait();
        try {
            long spin = nic.spinNanos();
            long yieldUntil = spin > 0 ? spin : YIELD_NANOS;
            long idleSince = System.nanoTime();
            for (int i = 0; ; i++) {
                Status s = status;
                if (s != null) {
                    return s;
                }
                if (nic.progress()) {
                    idleSince = System.nanoTime();
                } else if ((i & 63) != 0 && spin > 0) {
                    Thread.onSpinWait();
                } else {
                    long idle = System.nanoTime() - idleSince;
                    if (spin > 0 && idle < PAUSE_NANOS) {
                        Thread.onSpinWait(); // a message is usually this close: no system call
                    } else if (idle < yieldUntil) {
                        // a rank with work (a peer, or this JVM's compiler and collector threads) runs
                        // first; where ranks outnumber CPUs, as Open MPI's yield does
                        Thread.yield();
                    } else if (status == null) {
                        nic.block(BLOCK_NANOS);
                    }
                    checkInterrupt();
                }
            }
        } finally {
            nic.endWait();
            waiter = null;
        }
    }

    private Status parkUntilDone() {
        waiter = Thread.currentThread();
        try {
            Status s;
            while ((s = status) == null) {
                LockSupport.parkNanos(this, BLOCK_NANOS); // with this request as the blocker, for thread dumps
                checkInterrupt();
            }
            return s;
        } finally {
            waiter = null;
        }
    }

    private static void checkInterrupt() {
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while waiting for a request (thread "
                    + Thread.currentThread().getName() + ")");
        }
    }

    private static Status checked(Status s) {
        MpiException e = s.error();
        if (e != null) {
            // a fresh exception, so the stack trace shows the caller; the original is its cause
            throw new MpiException(e.errorClass(), e.reason(), e);
        }
        return s;
    }

    /** Keeps the buffer reachable until completion (the field is read here so it is never elided). */
    Object buffer() {
        return buffer;
    }

    // ---- many requests ------------------------------------------------------------------------

    /**
     * {@code MPI_Waitall}: waits for every request, then throws the first failure (the others'
     * errors are in their statuses and suppressed on it).
     *
     * @return the statuses, in order
     */
    public static Status[] waitAll(Request... requests) {
        Tracer t = checkArray(requests, "waitAll");
        if (t != null) {
            t.enterWait();
        }
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i].status;
            if (out[i] == null) {
                out[i] = requests[i].await();
            }
        }
        if (t != null) {
            RequestTrace.waited(t, requests, null);
        }
        throwFirst(out);
        return out;
    }

    /** {@code MPI_Waitall} over a list. */
    public static Status[] waitAll(List<Request> requests) {
        if (requests == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "waitAll needs a list of requests, got null");
        }
        return waitAll(requests.toArray(new Request[0]));
    }

    /**
     * {@code MPI_Waitany}: waits until one request has ended.
     *
     * @return the index of a completed request
     * @throws MpiException ERR_ARG for an empty array, ERR_REQUEST for a null element, ERR_OTHER if
     *                      the thread is interrupted, or that request's error
     */
    public static int waitAny(Request... requests) {
        Tracer t = checkArray(requests, "waitAny");
        if (requests.length == 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "waitAny needs at least one request, got none");
        }
        Nic nic = null;
        for (Request r : requests) {
            nic = nic == null ? r.nic : nic;
        }
        Thread me = Thread.currentThread();
        for (Request r : requests) {
            r.waiter = me;
        }
        if (nic != null) {
            nic.beginWait();
        }
        if (t != null) {
            t.enterWait();
        }
        try {
            long spin = nic == null ? 0 : nic.spinNanos();
            long idleSince = System.nanoTime();
            while (true) {
                for (int i = 0; i < requests.length; i++) {
                    Status s = requests[i].status;
                    if (s != null) {
                        if (t != null) {
                            RequestTrace.waited(t, requests, new int[] {i});
                        }
                        checked(s);
                        return i;
                    }
                }
                if (nic != null && nic.progress()) {
                    idleSince = System.nanoTime();
                } else if (System.nanoTime() - idleSince < spin) {
                    Thread.onSpinWait();
                } else {
                    if (nic != null) {
                        nic.block(BLOCK_NANOS);
                    } else {
                        PARK.idle();
                    }
                    checkInterrupt();
                }
            }
        } finally {
            if (nic != null) {
                nic.endWait();
            }
            for (Request r : requests) {
                if (r.waiter == me) {
                    r.waiter = null;
                }
            }
        }
    }

    /**
     * {@code MPI_Testall}.
     *
     * @return the statuses if every request has ended, else null
     * @throws MpiException the first failure, once all have ended
     */
    public static Status[] testAll(Request... requests) {
        Tracer t = checkArray(requests, "testAll");
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i].status;
            if (out[i] == null) {
                return null;
            }
        }
        if (t != null) {
            RequestTrace.tested(t, requests, null);
        }
        throwFirst(out);
        return out;
    }

    /**
     * {@code MPI_Testsome}.
     *
     * @return the indices of the requests that have ended (possibly none); their errors are in
     *         their statuses ({@link #test} throws them)
     */
    public static int[] testSome(Request... requests) {
        Tracer t = checkArray(requests, "testSome");
        List<Integer> done = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].status != null) {
                done.add(i);
            }
        }
        int[] which = done.stream().mapToInt(Integer::intValue).toArray();
        if (t != null) {
            RequestTrace.tested(t, requests, which);
        }
        return which;
    }

    /**
     * Checks the array and every element before any waiting.
     *
     * @return the tracer of the first traced request, or null (this rank is not traced)
     */
    private static Tracer checkArray(Request[] requests, String call) {
        if (requests == null) {
            throw new MpiException(ErrorClass.ERR_ARG, call + " needs an array of requests, got null");
        }
        Tracer t = null;
        for (int i = 0; i < requests.length; i++) {
            Tracer r = checkNotNull(requests, i).tracer();
            t = t == null ? r : t;
        }
        return t;
    }

    private static Request checkNotNull(Request[] requests, int i) {
        if (requests[i] == null) {
            throw new MpiException(ErrorClass.ERR_REQUEST, "request " + i + " of " + requests.length + " is null");
        }
        return requests[i];
    }

    private static void throwFirst(Status[] statuses) {
        MpiException first = null;
        for (Status s : statuses) {
            if (s.error() != null) {
                if (first == null) {
                    first = new MpiException(s.error().errorClass(), s.error().reason(), s.error());
                } else {
                    first.addSuppressed(s.error());
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
