package org.jspin.bootstrap.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The processes of one job, the threads copying their output, and the descendants seen so far; and
 * how all of them are stopped, leaving no orphan. Safe to use from the launcher and its shutdown
 * hook at the same time.
 */
final class JobProcesses {
    /** How long descendants get to die (and be reaped by a waiting parent) before the ranks themselves are signalled. */
    private static final long DESCENDANTS_FIRST_MILLIS = 500;
    /** How long SIGKILLed processes get to disappear before the launcher reports them and gives up. */
    private static final long KILL_WAIT_MILLIS = 5_000;
    /** How long output still in the pipes gets to reach out/err once the processes are gone. */
    private static final long DRAIN_MILLIS = 2_000;

    private final Process[] processes;
    private final List<List<Thread>> pumps;
    private final PrintStream err;
    private final Duration grace;
    /** Set by the shutdown hook: ranks dying now were stopped by it, not failures to report. */
    volatile boolean terminated;
    /** Every descendant ever sampled; ProcessHandle compares start times too, so a reused pid is not mistaken for one. */
    private final Set<ProcessHandle> descendants = ConcurrentHashMap.newKeySet();

    /**
     * @param n     how many ranks the job has
     * @param err   where a report of processes that could not be stopped goes
     * @param grace how long stopped ranks get between SIGTERM and SIGKILL
     */
    JobProcesses(int n, PrintStream err, Duration grace) {
        this.processes = new Process[n];
        this.pumps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pumps.add(List.of());
        }
        this.err = err;
        this.grace = grace;
    }

    /** Adopts rank {@code rank}'s process: closes its stdin and copies its stdout to {@code to} and its stderr to {@code toErr}, prefixed. */
    synchronized void started(int rank, Process p, PrintStream to, PrintStream toErr) {
        processes[rank] = p;
        try {
            p.getOutputStream().close(); // no stdin: a rank reading it sees the end at once
        } catch (IOException e) {
            // nothing to close
        }
        byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
        pumps.set(rank, List.of(
                Thread.ofPlatform().daemon().name("jspin-run-" + rank + "-out").start(() -> LinePump.pump(p.getInputStream(), to, prefix)),
                Thread.ofPlatform().daemon().name("jspin-run-" + rank + "-err").start(() -> LinePump.pump(p.getErrorStream(), toErr, prefix))));
    }

    /** @return rank {@code rank}'s process, or null before it started */
    synchronized Process process(int rank) {
        return processes[rank];
    }

    private synchronized List<Process> processes() {
        List<Process> l = new ArrayList<>();
        for (Process p : processes) {
            if (p != null) {
                l.add(p);
            }
        }
        return l;
    }

    /** @return the ranks whose process is running, in order */
    List<Integer> aliveRanks() {
        List<Integer> alive = new ArrayList<>();
        synchronized (this) {
            for (int r = 0; r < processes.length; r++) {
                if (processes[r] != null && processes[r].isAlive()) {
                    alive.add(r);
                }
            }
        }
        return alive;
    }

    /**
     * Adds the ranks' descendants now running to those seen. One scan of the machine's processes
     * for all ranks (the launcher's own descendants), rather than one per rank: each scan reads
     * every process's stat file, whoever asks. A handle counts if one of its ancestors is a live
     * rank of this job; the launcher's other children (another job's ranks, in a JVM running
     * several) do not.
     */
    void sampleDescendants() {
        Set<Long> ranks = new HashSet<>();
        for (Process p : processes()) {
            if (p.isAlive()) {
                ranks.add(p.pid());
            }
        }
        if (ranks.isEmpty()) {
            return;
        }
        ProcessHandle.current().descendants().forEach(h -> {
            if (!ranks.contains(h.pid()) && underRank(h, ranks)) {
                descendants.add(h);
            }
        });
    }

    /**
     * @return whether a rank in {@code ranks} is an ancestor of {@code h} (a few {@code parent()}
     *         steps: a rank's descendants are rarely many levels deep, and the walk stops at the
     *         launcher)
     */
    static boolean underRank(ProcessHandle h, Set<Long> ranks) {
        long self = ProcessHandle.current().pid();
        Optional<ProcessHandle> up = h.parent();
        for (int depth = 0; depth < 64 && up.isPresent(); depth++) {
            long pid = up.get().pid();
            if (ranks.contains(pid)) {
                return true;
            }
            if (pid == self || pid <= 1) {
                return false;
            }
            up = up.get().parent();
        }
        return false;
    }

    /**
     * Stops every rank still running and every known descendant: SIGTERM to descendants,
     * a moment for them to die, SIGTERM to the ranks, the grace period, SIGKILL to what is
     * left, and a wait until all of it is gone. Safe to call again, and from the shutdown hook
     * at the same time.
     */
    void stop() {
        sampleDescendants();
        List<Process> ranks = new ArrayList<>(processes());
        ranks.removeIf(p -> !p.isAlive());
        Set<ProcessHandle> tree = new LinkedHashSet<>(descendants);
        tree.removeIf(h -> !Processes.running(h));
        if (ranks.isEmpty() && tree.isEmpty()) {
            sweepGroups();
            return;
        }
        long graceEnd = System.nanoTime() + grace.toNanos();
        // descendants first: a shell waiting for its child then reaps it, rather than leaving a zombie to PID 1
        tree.forEach(ProcessHandle::destroy);
        awaitGone(List.of(), tree, Math.min(graceEnd, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DESCENDANTS_FIRST_MILLIS)));
        for (Process p : ranks) {
            // through the handle: Process.destroy() also closes our ends of its pipes, losing what it prints while it stops
            p.toHandle().destroy();
        }
        for (Process p : ranks) {
            p.descendants().filter(Processes::running).forEach(h -> { // spawned meanwhile
                descendants.add(h);
                if (tree.add(h)) {
                    h.destroy();
                }
            });
        }
        awaitGone(ranks, tree, graceEnd);
        tree.stream().filter(Processes::running).forEach(ProcessHandle::destroyForcibly);
        ranks.stream().filter(Process::isAlive).forEach(p -> p.toHandle().destroyForcibly());
        awaitGone(ranks, tree, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MILLIS));
        sweepGroups();
        List<Long> survivors = new ArrayList<>();
        ranks.stream().filter(Process::isAlive).forEach(p -> survivors.add(p.pid()));
        tree.stream().filter(Processes::running).forEach(h -> survivors.add(h.pid()));
        if (!survivors.isEmpty()) {
            err.println("jspin run: could not stop processes " + survivors + " even with SIGKILL");
        }
    }

    /** Whatever is left in the ranks' process groups (children orphaned while their rank stopped) goes too. */
    private void sweepGroups() {
        for (Process p : processes()) {
            ProcessGroups.signal(p.pid(), "TERM");
        }
        for (Process p : processes()) {
            ProcessGroups.signal(p.pid(), "KILL");
        }
    }

    /** Waits until the pumps of {@code rank} have passed on everything (bounded: a descendant may hold its pipes open). */
    void drain(int rank) throws InterruptedException {
        List<Thread> ts;
        synchronized (this) {
            ts = pumps.get(rank);
        }
        join(ts, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
    }

    /** Waits until every pump has passed on everything, for at most {@link #DRAIN_MILLIS} in all. */
    void drain() {
        List<Thread> ts = new ArrayList<>();
        synchronized (this) {
            pumps.forEach(ts::addAll);
        }
        try {
            join(ts, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(List<Thread> ts, long until) throws InterruptedException {
        for (Thread t : ts) {
            long left = until - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                return;
            }
        }
    }

    private static void awaitGone(List<Process> ranks, Set<ProcessHandle> tree, long until) {
        while (System.nanoTime() < until
                && (ranks.stream().anyMatch(Process::isAlive) || tree.stream().anyMatch(Processes::running))) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // stopping must finish: keep the flag for the caller
                return;
            }
        }
    }
}
