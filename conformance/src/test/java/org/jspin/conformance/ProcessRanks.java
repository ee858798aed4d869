package org.jspin.conformance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.Mpi;
import org.jspin.nic.Job;
import org.jspin.nic.NicConfig;
import org.jspin.nic.Providers;
import org.jspin.transport.netty.NettyFabricProvider;
import org.jspin.transport.netty.join.NettyLaunch;
import org.jspin.bootstrap.rendezvous.RendezvousClient;
import org.jspin.bootstrap.rendezvous.RendezvousServer;

/**
 * {@link Target#run} for a {@link Target#processes()} target: rank 0 on the calling thread of this
 * JVM, ranks 1..n-1 in worker JVMs ({@link Workers}, {@link RankWorker}), the endpoints exchanged
 * through a {@link RendezvousServer} of this JVM. A worker runs the same test (found by its JUnit
 * unique id, {@link CurrentTest}) up to the same {@code run} call, joins the job as its rank and
 * runs that rank's body.
 *
 * <p>Failures are those of {@link LocalRanks#run}: every rank joins before any body starts (a
 * rank that cannot start makes the others leave without running); a rank whose body throws
 * aborts, so its peers see ERR_PROC_FAILED; the first failure by time (wall clock, comparable
 * across the JVMs of one machine) is thrown as an MpiException of its error class whose message
 * names the rank (ERR_OTHER and the throwable's class and message for any other throwable, with
 * the worker's throwable rebuilt as the cause), the others suppressed on it. A worker JVM that dies
 * fails its rank. After the timeout the workers still running are killed (and replaced when next
 * needed), rank 0 is interrupted, and the run fails naming the ranks that did not finish.
 */
final class ProcessRanks {
    private static final AtomicLong RUNS = new AtomicLong();
    /** How long after killing a worker at the timeout its death may take to be seen. */
    private static final long KILL_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Once a rank has failed to start, how long the others may take to notice: one still trying to
     * reach the (closed) rendezvous would retry until its connect timeout, so it is killed instead.
     */
    private static final long START_FAILURE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * What one {@code run} call of a test gave in this JVM (null error class: it returned), so a
     * worker that runs the same test to a later call gives the same at this one.
     */
    record Outcome(ErrorClass errorClass, String reason, List<Outcome> suppressed) {
        static final Outcome OK = new Outcome(null, null, List.of());

        static Outcome of(MpiException e) {
            if (e == null) {
                return OK;
            }
            List<Outcome> s = new ArrayList<>();
            for (Throwable t : e.getSuppressed()) {
                s.add(t instanceof MpiException m ? new Outcome(m.errorClass(), m.reason(), List.of())
                        : new Outcome(ErrorClass.ERR_OTHER, t.toString(), List.of()));
            }
            return new Outcome(e.errorClass(), e.reason(), s);
        }

        /** Returns, or throws what the call threw here (error class, message and suppressed failures). */
        void replay() {
            if (errorClass == null) {
                return;
            }
            MpiException e = new MpiException(errorClass, reason);
            for (Outcome s : suppressed) {
                e.addSuppressed(new MpiException(s.errorClass, s.reason));
            }
            throw e;
        }
    }

    private record Failed(Instant at, MpiException failure) {
    }

    private final Target target;
    private final int n;
    private final NicConfig nic;
    private final long timeoutSeconds;
    private final LocalRanks.RankBody body;
    private final CurrentTest.Running test;
    private final int call;
    private final long run = RUNS.incrementAndGet();
    private final Thread caller = Thread.currentThread();
    private final List<Failed> failures = Collections.synchronizedList(new ArrayList<>());
    private final TreeSet<Integer> unfinished = new TreeSet<>();
    private List<Workers.Worker> workers = List.of();
    private boolean timedOut;
    private boolean rank0Busy;
    private boolean interrupted;
    private volatile boolean startFailed;
    private volatile long startFailedAt;

    private ProcessRanks(Target target, int n, NicConfig nic, long timeoutSeconds, LocalRanks.RankBody body,
                         CurrentTest.Running test, int call) {
        this.target = target;
        this.n = n;
        this.nic = nic;
        this.timeoutSeconds = timeoutSeconds;
        this.body = body;
        this.test = test;
        this.call = call;
    }

    /**
     * Runs {@code body} on {@code n} ranks, rank 0 here and the others in worker JVMs; in a worker,
     * runs that worker's rank ({@link RankWorker.Context#run}).
     *
     * @throws MpiException as {@link LocalRanks#run(int, org.jspin.mpi.MpiOptions, long, LocalRanks.RankBody)}
     */
    static void run(Target target, int n, NicConfig nic, long timeoutSeconds, LocalRanks.RankBody body) {
        if (n < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "a job needs at least 1 rank, got " + n);
        }
        if (timeoutSeconds < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "a job of separate processes needs a timeout, got "
                    + timeoutSeconds + " s");
        }
        if (nic == null || body == null) {
            throw new MpiException(ErrorClass.ERR_ARG, (nic == null ? "NIC settings" : "rank body") + " must not be null");
        }
        Providers.fabric(target.fabric());
        Providers.backend(target.backend());
        if (!Targets.PROCESS_FABRICS.contains(target.fabric())) {
            throw new MpiException(ErrorClass.ERR_ARG, "fabric '" + target.fabric() + "' cannot connect ranks in "
                    + "separate processes; these can: " + Targets.PROCESS_FABRICS);
        }
        RankWorker.Context worker = RankWorker.context();
        if (worker != null) {
            worker.run(target, n, nic, body);
            return;
        }
        CurrentTest.Running test = CurrentTest.current();
        if (test == null) {
            throw new IllegalStateException(target + ": run must be called from a test method of the suite "
                    + "(worker JVMs find the call by the test's JUnit unique id; is the CurrentTest extension registered?)");
        }
        try {
            new ProcessRanks(target, n, nic, timeoutSeconds, body, test, test.calls()).execute();
        } catch (MpiException e) {
            test.finished(e);
            throw e;
        } catch (RuntimeException | Error e) {
            test.finished(new MpiException(ErrorClass.ERR_INTERN, e.toString()));
            throw e;
        }
        test.finished(null);
    }

    private void execute() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        String jobId = "processes-" + UUID.randomUUID();
        String secret = NettyFabricProvider.newSecret();
        Duration connect = Duration.ofSeconds(Math.min(NettyLaunch.DEFAULT_TIMEOUT.toSeconds(), timeoutSeconds));
        RendezvousServer server = RendezvousServer.start(NettyLaunch.LOOPBACK, 0, jobId, secret, n, connect);
        AtomicBoolean serverClosed = new AtomicBoolean();
        Runnable closeServer = () -> {
            if (serverClosed.compareAndSet(false, true)) {
                server.close();
            }
        };
        Thread watchdog = null;
        try {
            workers = Workers.acquire(n - 1, deadline);
            for (Workers.Worker w : workers) {
                // a rank that cannot start makes the exchange fail at once rather than at its timeout
                w.listener(e -> {
                    if (e.type() == ControlWire.JOIN_FAILED || e.type() == Workers.Event.DIED) {
                        startFailed();
                        Thread.ofVirtual().start(closeServer);
                    }
                });
                w.send(ControlWire.RUN, run, new ControlWire.RunRequest(run, test.uniqueId(), call, test.outcomes(),
                        target.toString(), w.slot + 1, n, jobId, secret, server.address(), nic, connect.toMillis()));
            }
            watchdog = Thread.ofVirtual().name("jspin-processes-watchdog").start(() -> {
                try {
                    long left = deadline - System.nanoTime();
                    if (left > 0) {
                        TimeUnit.NANOSECONDS.sleep(left);
                    }
                    timeout();
                } catch (InterruptedException e) {
                    // the run ended in time
                }
            });
            Mpi mpi = joinRank0(jobId, secret, server.address(), connect);
            if (mpi == null) {
                startFailed();
                closeServer.run();
            }
            boolean started = mpi != null;
            List<Workers.Worker> joined = new ArrayList<>();
            for (Workers.Worker w : workers) {
                Workers.Event e = awaitStart(w, deadline);
                int rank = w.slot + 1;
                if (e == null) {
                    started = false;
                } else if (e.type() == ControlWire.JOINED) {
                    joined.add(w);
                } else {
                    started = false;
                    startFailed();
                    failed(e.type() == ControlWire.JOIN_FAILED ? e.failure().at() : e.at(), e.type() == ControlWire.JOIN_FAILED
                            ? e.failure().asRankFailure(rank, true)
                            : new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " failed to start: " + w.describeDeath()));
                }
            }
            for (Workers.Worker w : joined) {
                w.send(started ? ControlWire.GO : ControlWire.ABORT, run, null);
            }
            if (mpi != null) {
                if (started) {
                    runRank0(mpi);
                } else {
                    mpi.abort(); // a peer could not start: leave without running
                }
            }
            for (Workers.Worker w : joined) {
                Workers.Event e = await(w, deadline);
                int rank = w.slot + 1;
                if (e != null && e.type() == ControlWire.RESULT && e.failure() != null) {
                    failed(e.failure().at(), e.failure().asRankFailure(rank, false));
                } else if (e != null && e.type() == Workers.Event.DIED) {
                    failed(e.at(), new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + ": " + w.describeDeath()));
                }
            }
            synchronized (this) {
                if (timedOut) {
                    List<Integer> killed = unfinished.stream().filter(r -> r > 0).toList();
                    MpiException timeout = new MpiException(ErrorClass.ERR_OTHER, "the " + n + "-rank job did not "
                            + "finish within its timeout of " + timeoutSeconds + " s (ranks " + unfinished
                            + " still running); " + (unfinished.contains(0) ? "rank 0 was interrupted" : "")
                            + (unfinished.contains(0) && !killed.isEmpty() ? ", " : "")
                            + (killed.isEmpty() ? "" : "the worker JVMs of ranks " + killed + " were killed (they are replaced)"));
                    sorted().forEach(f -> timeout.addSuppressed(f.failure));
                    throw timeout;
                }
            }
            List<Failed> all = sorted();
            if (!all.isEmpty()) {
                MpiException first = all.getFirst().failure;
                MpiException thrown = new MpiException(first.errorClass(), first.reason(), first);
                all.stream().skip(1).forEach(f -> thrown.addSuppressed(f.failure));
                throw thrown;
            }
        } finally {
            for (Workers.Worker w : workers) {
                w.listener(null);
            }
            if (watchdog != null) {
                watchdog.interrupt();
            }
            closeServer.run();
            synchronized (this) {
                if (interrupted) {
                    Thread.interrupted(); // ours, not the caller's
                }
            }
        }
    }

    private Mpi joinRank0(String jobId, String secret, String rendezvous, Duration connect) {
        Job job = new Job(jobId, n);
        job.attachment(NettyLaunch.KEY, NettyLaunch.class, () -> new NettyLaunch(secret,
                new RendezvousClient(rendezvous, jobId, secret), NettyLaunch.LOOPBACK, connect));
        busy(true);
        try {
            return Mpi.join(job, 0, target.options(nic));
        } catch (Throwable t) {
            failed(Instant.now(), t instanceof MpiException m
                    ? new MpiException(m.errorClass(), "rank 0 failed to start: " + m.reason(), m)
                    : new MpiException(ErrorClass.ERR_OTHER, "rank 0 failed to start: " + t, t));
            return null;
        } finally {
            busy(false);
        }
    }

    private void runRank0(Mpi mpi) {
        busy(true);
        try {
            try {
                body.run(mpi);
            } catch (Throwable t) {
                failed(Instant.now(), withRank(0, t));
                mpi.abort();
                return;
            }
            try {
                mpi.close();
            } catch (Throwable t) {
                failed(Instant.now(), withRank(0, t));
            }
        } finally {
            busy(false);
        }
    }

    private static MpiException withRank(int rank, Throwable t) {
        if (t instanceof MpiException m) {
            return new MpiException(m.errorClass(), "rank " + rank + ": " + m.reason(), m);
        }
        return new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + ": " + t, t);
    }

    private void startFailed() {
        if (!startFailed) {
            startFailedAt = System.nanoTime();
            startFailed = true;
        }
    }

    /**
     * @return whether {@code w} joined, or could not; null if it timed out (it was killed), or if
     *         it was still joining a while after another rank failed to start (it was killed too)
     */
    private Workers.Event awaitStart(Workers.Worker w, long deadline) {
        while (true) {
            long until = startFailed ? startFailedAt + START_FAILURE_GRACE_NANOS : deadline;
            if (until - deadline >= 0) {
                until = deadline;
            }
            Workers.Event e = w.poll(run, Math.min(until, System.nanoTime() + SLICE_NANOS));
            if (e != null) {
                return e;
            }
            if (System.nanoTime() - until >= 0) {
                if (until == deadline) {
                    return await(w, deadline);
                }
                w.kill(); // no failure of its own: it only waited for one that failed
                return null;
            }
        }
    }

    /**
     * @return the next event of {@code w} in this run; null if it did not come by {@code deadline}
     *         (the run has then timed out, and {@code w} was killed)
     */
    private Workers.Event await(Workers.Worker w, long deadline) {
        Workers.Event e = w.poll(run, deadline);
        if (e == null) {
            timeout();
            e = w.poll(run, System.nanoTime() + KILL_GRACE_NANOS);
        }
        return e == null || e.type() == Workers.Event.DIED && w.killed() ? null : e;
    }

    /** The run is out of time: kills the workers that have not finished it, interrupts a busy rank 0. */
    private synchronized void timeout() {
        if (timedOut) {
            return;
        }
        timedOut = true;
        for (Workers.Worker w : workers) {
            if (!w.finished(run)) {
                unfinished.add(w.slot + 1);
                w.kill();
            }
        }
        if (rank0Busy) {
            unfinished.add(0);
            interrupted = true;
            caller.interrupt();
        }
    }

    private synchronized void busy(boolean on) {
        rank0Busy = on;
        if (!on && interrupted) {
            Thread.interrupted(); // the timeout's interrupt of rank 0 must not reach what this thread does next
        }
    }

    private void failed(Instant at, MpiException e) {
        failures.add(new Failed(at, e));
    }

    private List<Failed> sorted() {
        synchronized (failures) {
            List<Failed> all = new ArrayList<>(failures);
            all.sort(Comparator.comparing(Failed::at));
            return all;
        }
    }
}
