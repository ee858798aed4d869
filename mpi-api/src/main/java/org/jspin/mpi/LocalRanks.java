package org.jspin.mpi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.Providers;

/**
 * Runs a function on N ranks that are threads of this JVM (for tests and embedded use), and
 * rethrows the first rank's failure. A rank that fails leaves the job at once, so ranks waiting on
 * it fail with ERR_PROC_FAILED rather than hang.
 */
public final class LocalRanks {
    /** What each rank runs. */
    @FunctionalInterface
    public interface RankBody {
        /** Runs on one rank; {@code mpi} is closed (finalized) after it returns. */
        void run(Mpi mpi) throws Exception;
    }

    private LocalRanks() {
    }

    /** Runs {@code body} on {@code n} ranks with the options the environment gives. */
    public static void run(int n, RankBody body) {
        run(n, MpiOptions.fromEnvironment(), body);
    }

    /** Runs {@code body} on {@code n} ranks, without a time limit. */
    public static void run(int n, MpiOptions options, RankBody body) {
        run(n, options, 0, body);
    }

    /**
     * Runs {@code body} on {@code n} ranks. Every rank joins the job before any rank's body starts
     * (so no rank can leave before a peer has attached and miss seeing it go); if one fails to
     * start, none runs its body. The rank threads are daemons: a run abandoned at its timeout is
     * interrupted (a rank blocked in MPI then fails and leaves) and never keeps the JVM alive.
     *
     * @param timeoutSeconds abandon the run after this long (0: no limit)
     * @throws MpiException ERR_ARG for {@code n < 1}, a negative timeout, a null body or options,
     *                      or an unknown backend or fabric; the first rank failure (others
     *                      suppressed on it); or ERR_OTHER on timeout
     */
    public static void run(int n, MpiOptions options, long timeoutSeconds, RankBody body) {
        if (n < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "a job needs at least 1 rank, got " + n);
        }
        if (timeoutSeconds < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "timeout must be non-negative seconds (0: none), got "
                    + timeoutSeconds);
        }
        if (options == null || body == null) {
            throw new MpiException(ErrorClass.ERR_ARG, (options == null ? "options" : "rank body") + " must not be null");
        }
        Providers.fabric(options.fabric()); // unknown names fail here, once, naming what is available
        Providers.backend(options.backend());
        Job job = new Job("local-" + UUID.randomUUID(), n);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Start start = new Start(n);
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int rank = r;
            threads.add(Thread.ofPlatform().name("rank-" + r).daemon(true)
                    .unstarted(() -> runRank(job, rank, options, body, failures, start)));
        }
        threads.forEach(Thread::start);
        long deadline = timeoutSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds) : Long.MAX_VALUE;
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (deadline == Long.MAX_VALUE) {
                    t.join();
                } else if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                    threads.forEach(Thread::interrupt);
                    MpiException timeout = new MpiException(ErrorClass.ERR_OTHER, "the " + n + "-rank job did not "
                            + "finish within its timeout of " + timeoutSeconds + " s (" + t.getName()
                            + " still running); its ranks were interrupted");
                    synchronized (failures) {
                        failures.forEach(timeout::addSuppressed);
                    }
                    throw timeout;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            threads.forEach(Thread::interrupt);
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while waiting for the " + n + " ranks");
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.getFirst();
            MpiException thrown = first instanceof MpiException m
                    ? new MpiException(m.errorClass(), m.reason(), m)
                    : new MpiException(ErrorClass.ERR_OTHER, first.toString(), first);
            failures.stream().skip(1).forEach(thrown::addSuppressed);
            throw thrown;
        }
    }

    /** Every rank has joined (or failed to): the bodies may start. */
    private static final class Start {
        private final CountDownLatch joined;
        private volatile boolean failed;

        Start(int n) {
            joined = new CountDownLatch(n);
        }

        /** @return whether every rank joined (false: one failed, or this thread was interrupted) */
        boolean arrive(boolean ok) {
            if (!ok) {
                failed = true;
            }
            joined.countDown();
            try {
                joined.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return !failed;
        }
    }

    private static void runRank(Job job, int rank, MpiOptions options, RankBody body, List<Throwable> failures,
                                Start start) {
        Mpi mpi;
        try {
            mpi = Mpi.join(job, rank, options);
        } catch (Throwable t) {
            failures.add(t instanceof MpiException m
                    ? new MpiException(m.errorClass(), "rank " + rank + " failed to start: " + m.reason(), m)
                    : new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " failed to start: " + t, t));
            start.arrive(false);
            return;
        }
        if (!start.arrive(true)) {
            mpi.abort(); // a peer could not start (or the run was abandoned): leave without running
            return;
        }
        try {
            body.run(mpi);
        } catch (Throwable t) {
            failures.add(withRank(rank, t));
            mpi.abort();
            return;
        }
        try {
            mpi.close();
        } catch (Throwable t) {
            failures.add(withRank(rank, t));
        }
    }

    private static Throwable withRank(int rank, Throwable t) {
        if (t instanceof MpiException m) {
            return new MpiException(m.errorClass(), "rank " + rank + ": " + m.reason(), m);
        }
        return new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + ": " + t, t);
    }
}
