package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.jspin.cli.SystemTestPrograms.Hang;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults of the launcher itself: {@code jspin run} killed with SIGKILL (no hook of its can run, so
 * each rank must notice by itself, through {@code JSPIN_LAUNCHER_PID}, and take what it started
 * with it) or stopped with SIGTERM (its hook stops the ranks). Either way no process of the job may
 * outlive it by more than {@link #BOUND}. The job's processes are found two ways: the handles
 * taken while they were alive (every {@code pid=} and {@code child=} line, and a snapshot of the
 * processes below the test's process just before the signal), and a marker, unique to the test, on
 * every rank's command line, looked for among all the processes of this machine. A process counts
 * as gone once it has exited: a zombie re-parented to PID 1 waits for PID 1 to reap it, on PID 1's
 * schedule (here, seconds), as the launcher's own {@code Processes.running} counts it.
 */
class LauncherFaultSystemTest {
    /** How long after the signal to the launcher every process of its job may still run. */
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Duration START = Duration.ofSeconds(60);

    private final List<SpawnedProcess> started = new ArrayList<>();

    @AfterEach
    void killEverythingStarted() {
        started.forEach(SpawnedProcess::close);
    }

    /** @return {@code jspin run} of three ranks of {@link Hang} with {@code marker} as the program's argument */
    private static List<String> blockedJobCommand(String marker) {
        return SpawnedProcess.jspin("run", "-n", "3", "--timeout", "120", Hang.class.getName(), marker);
    }

    /**
     * Starts {@code command} and waits until the three ranks of {@link Hang} it runs have each
     * started a child {@code sleep} and blocked (rank 0 in a receive nobody sends).
     */
    private SpawnedProcess startBlocked(List<String> command) throws InterruptedException {
        SpawnedProcess run = SpawnedProcess.start(command, Map.of());
        started.add(run);
        run.awaitRankPids(3, START);
        run.awaitOut(l -> l.matches("\\[[012]] child=\\d+"), 3, START, "announcing each rank's child");
        run.awaitOut(l -> l.matches("\\[[012]] blocking"), 3, START, "saying each rank is blocked");
        run.snapshotDescendants();
        return run;
    }

    /** @return the job's processes seen alive (ranks, their children), {@code launcher} excluded */
    private static Set<ProcessHandle> jobOf(SpawnedProcess run, long launcher, String marker) {
        Set<ProcessHandle> job = new LinkedHashSet<>(run.everyProcessSeen());
        job.removeIf(h -> h.pid() == launcher);
        assertTrue(job.size() >= 6, "three ranks and their three children were seen alive: " + job + "\n" + run.transcript());
        assertEquals(3, carrying(marker, except(launcher, run.pid())).size(), "the three ranks carry the marker\n"
                + run.transcript());
        return job;
    }

    private static Set<Long> except(long... pids) {
        return java.util.Arrays.stream(pids).boxed().collect(Collectors.toSet());
    }

    /**
     * @return the running processes of this machine, other than {@code except}, whose command line
     *         holds {@code marker} (read from {@code /proc/PID/cmdline} whole: {@link ProcessHandle.Info}
     *         may cut a long one, and a rank's class path is long)
     */
    private static List<ProcessHandle> carrying(String marker, Set<Long> except) {
        return ProcessHandle.allProcesses()
                .filter(h -> !except.contains(h.pid()) && h.pid() != ProcessHandle.current().pid())
                .filter(h -> commandLine(h).contains(marker) && running(h))
                .toList();
    }

    private static String commandLine(ProcessHandle h) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return ""; // gone meanwhile
        }
    }

    /** Whether {@code h} still runs: alive and not a zombie. */
    private static boolean running(ProcessHandle h) {
        return h.isAlive() && state(h.pid()) != 'Z';
    }

    /** @return the state letter Linux gives {@code pid} ({@code R}, {@code S}, {@code Z}...), '?' if it is gone */
    private static char state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            int close = stat.lastIndexOf(')'); // "pid (comm) S ...": the command may hold ')', the state follows the last
            return close > 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        } catch (IOException e) {
            return '?';
        }
    }

    /**
     * Polls (every 10 ms, so the time measured is the processes' and not a waiter's backoff) until
     * no process of {@code job} runs and none carries {@code marker}; fails after {@link #BOUND}.
     *
     * @return milliseconds from {@code signalledAt} (a {@link System#nanoTime()}) to the last one gone
     */
    private static long awaitJobGone(SpawnedProcess run, Set<ProcessHandle> job, String marker, Set<Long> except,
            long signalledAt) throws InterruptedException {
        long deadline = signalledAt + BOUND.toNanos();
        Map<Long, Long> goneAfter = new TreeMap<>();
        while (true) {
            Set<ProcessHandle> alive = job.stream().filter(LauncherFaultSystemTest::running)
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            alive.addAll(carrying(marker, except));
            long now = System.nanoTime();
            for (ProcessHandle h : job) {
                if (!alive.contains(h)) {
                    goneAfter.putIfAbsent(h.pid(), TimeUnit.NANOSECONDS.toMillis(now - signalledAt));
                }
            }
            if (alive.isEmpty()) {
                System.out.println("  gone after (ms), by pid: " + goneAfter + "; ranks " + new TreeMap<>(run.rankPids()));
                return TimeUnit.NANOSECONDS.toMillis(now - signalledAt);
            }
            if (now > deadline) {
                List<String> described = alive.stream().map(h -> {
                    String c = commandLine(h);
                    return h.pid() + " " + state(h.pid()) + " (" + (c.length() > 100
                            ? c.substring(0, 50) + "..." + c.substring(c.length() - 50) : c) + ")";
                }).toList();
                return fail("still running " + BOUND + " after the launcher was signalled: " + described
                        + "; gone after (ms), by pid: " + goneAfter + "\n" + run.transcript());
            }
            Thread.sleep(10);
        }
    }

    /**
     * The words: "the launcher itself killed". SIGKILL to {@code jspin run} alone (not
     * its process group, not its children): no shutdown hook runs, so nobody stops the ranks
     * but the ranks themselves.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void killingTheLauncherWithSigkillLeavesNoRankNorItsChildBehind() throws InterruptedException {
        String marker = "launcher-sigkill-" + UUID.randomUUID();
        SpawnedProcess run = startBlocked(blockedJobCommand(marker));
        Set<ProcessHandle> job = jobOf(run, run.pid(), marker);

        long killedAt = System.nanoTime();
        assertTrue(run.process().toHandle().destroyForcibly(), "SIGKILL sent to the launcher");
        assertTrue(run.process().waitFor(5, TimeUnit.SECONDS), "the launcher died");
        assertEquals(137, run.process().exitValue(), run.transcript());
        long gone = awaitJobGone(run, job, marker, except(run.pid()), killedAt);
        System.out.println("jspin run killed (SIGKILL): the last of its " + job.size() + " processes gone " + gone
                + " ms later");
    }

    /**
     * As above, but the launcher's own parent does not reap it (a script that started it in the
     * background and went on with something else: here {@code sh} that execs {@code sleep}), so the
     * killed launcher stays a zombie: its pid still exists, and its ranks must not take that for
     * a launcher still running.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aKilledLauncherThatStaysAZombieStillLeavesNoRankBehind() throws InterruptedException {
        String marker = "launcher-zombie-" + UUID.randomUUID();
        String launch = blockedJobCommand(marker).stream().map(a -> "'" + a.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        SpawnedProcess parent = startBlocked(List.of("sh", "-c", launch + " & echo launcher=$!; exec sleep 300"));
        String said = parent.awaitOut(l -> l.startsWith("launcher="), START, "naming the launcher's pid");
        long launcher = Long.parseLong(said.substring("launcher=".length()));
        ProcessHandle launcherHandle = ProcessHandle.of(launcher)
                .orElseGet(() -> fail("the launcher " + launcher + " is gone\n" + parent.transcript()));
        Set<ProcessHandle> job = jobOf(parent, launcher, marker);

        long killedAt = System.nanoTime();
        assertTrue(launcherHandle.destroyForcibly(), "SIGKILL sent to the launcher");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (state(launcher) != 'Z' && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertEquals('Z', state(launcher), "the killed launcher is a zombie nobody reaps\n" + parent.transcript());
        long gone = awaitJobGone(parent, job, marker, except(launcher, parent.pid()), killedAt);
        assertEquals('Z', state(launcher), "still unreaped when its ranks were gone");
        System.out.println("jspin run killed (SIGKILL), left a zombie: the last of its " + job.size()
                + " processes gone " + gone + " ms later");
    }

    /** SIGTERM to {@code jspin run} (what {@code kill PID} and a batch system's cancel send): it stops its ranks and exits non-zero. */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void terminatingTheLauncherStopsItsRanksAndExitsNonZero() throws InterruptedException {
        String marker = "launcher-sigterm-" + UUID.randomUUID();
        SpawnedProcess run = startBlocked(blockedJobCommand(marker));
        Set<ProcessHandle> job = jobOf(run, run.pid(), marker);

        long termAt = System.nanoTime();
        // through the handle: Process.destroy() would also close our ends of the launcher's pipes, losing what it says
        assertTrue(run.process().toHandle().destroy(), "SIGTERM sent to the launcher");
        int code = run.awaitExit(BOUND);
        long exitedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - termAt);
        long gone = awaitJobGone(run, job, marker, except(run.pid()), termAt);
        assertNotEquals(0, code, run.transcript());
        assertTrue(run.err().contains("jspin run: terminated; stopping ranks [0, 1, 2]"), run.transcript());
        System.out.println("jspin run terminated (SIGTERM): exited " + code + " after " + exitedAfter
                + " ms; the last of its " + job.size() + " processes gone " + gone + " ms after the signal");
    }
}
