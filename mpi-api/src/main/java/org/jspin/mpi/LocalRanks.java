package org.jspin.mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;

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
     * Runs {@code body} on {@code n} ranks.
     *
     * @param timeoutSeconds abandon the run after this long (0: no limit)
     * @throws MpiException the first rank failure (others suppressed on it), or ERR_OTHER on timeout
     */
    public static void run(int n, MpiOptions options, long timeoutSeconds, RankBody body) {
        if (n < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "a job needs at least 1 rank, got " + n);
        }
        Job job = new Job("local-" + UUID.randomUUID(), n);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int rank = r;
            threads.add(Thread.ofPlatform().name("rank-" + r).unstarted(() -> runRank(job, rank, options, body, failures)));
        }
        threads.forEach(Thread::start);
        long deadline = timeoutSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds) : Long.MAX_VALUE;
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (deadline == Long.MAX_VALUE) {
                    t.join();
                } else if (left <= 0 || !t.join(java.time.Duration.ofNanos(left))) {
                    threads.forEach(Thread::interrupt);
                    throw new MpiException(ErrorClass.ERR_OTHER, "the " + n + "-rank job did not finish within "
                            + timeoutSeconds + " s (rank " + t.getName() + " still running)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            threads.forEach(Thread::interrupt);
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while waiting for the ranks");
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

    private static void runRank(Job job, int rank, MpiOptions options, RankBody body, List<Throwable> failures) {
        Mpi mpi;
        try {
            mpi = Mpi.join(job, rank, options);
        } catch (Throwable t) {
            failures.add(new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " failed to start: " + t, t));
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
