package org.jspin.bootstrap.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Starts the ranks of a job as local processes and supervises them: what {@code jspin run -n N}
 * does. Each rank's stdout and stderr are copied line by line to the launcher's {@code out} and
 * {@code err}, every line prefixed with {@code [rank] } and written whole, so lines of different
 * ranks never interleave mid-line (a line longer than 1 MiB is passed on in 1 MiB pieces, each
 * prefixed). The ranks' stdin is closed.
 *
 * <p>The job ends when every rank has exited 0 (exit code 0), when a rank exits non-zero (that
 * code: the first failure in time order, reported as {@code jspin run: rank 2 exited with code
 * 1; stopping the other ranks}), or when the timeout passes ({@value #TIMEOUT_EXIT_CODE}, as
 * {@code timeout(1)}, reported as {@code jspin run: timed out after 30 s; stopping ranks [0, 3]}).
 * A rank that cannot be started at all ends it with {@value #START_FAILURE_EXIT_CODE}.
 *
 * <p>Ending means no orphans: the remaining ranks and every descendant they have (found through
 * {@link ProcessHandle#descendants()}, also sampled while the job runs, at 0.2 s and then at
 * doubling intervals up to 6.4 s, so the children of a rank that already exited are not forgotten;
 * and through the ranks' process groups) get SIGTERM, descendants first so that a waiting parent
 * can reap them; whatever still runs after the grace period gets SIGKILL; and {@link #run} returns
 * only once they are gone (or after reporting the pids it could not stop). Descendants left behind
 * by ranks that all succeeded are stopped the same way. A JVM shutdown hook does the same if the
 * launcher itself is terminated (SIGTERM, Ctrl-C). Each rank also gets
 * {@value #LAUNCHER_PID_ENV}, the launcher's pid, so it can exit by itself should the launcher
 * vanish without running its hooks (SIGKILL).
 */
public final class RankLauncher {
    /** The exit code of a job that timed out, as {@code timeout(1)} uses. */
    public static final int TIMEOUT_EXIT_CODE = 124;
    /** The exit code of a job one of whose ranks could not be started, as a shell's "command not found". */
    public static final int START_FAILURE_EXIT_CODE = 127;
    /** The environment variable holding the launcher's pid in every rank. */
    public static final String LAUNCHER_PID_ENV = "JSPIN_LAUNCHER_PID";
    /** How long stopped ranks get between SIGTERM and SIGKILL unless told otherwise. */
    /** util-linux's setsid and kill, when present (Debian has both): process groups per rank. */
    private static final String SETSID = executable("/usr/bin/setsid");
    private static final String KILL = executable("/usr/bin/kill");
    /** How long after a rank's failure the launcher waits for others before it names the cause. */
    private static final long BLAME_WINDOW_MILLIS = 200;
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    /** Longest line passed on whole; longer ones are cut so a rank printing without newlines cannot exhaust memory. */
    static final int MAX_LINE = 1 << 20;
    /**
     * When the descendants of running ranks are first sampled; each later sample comes twice as long
     * after the one before, up to {@link #LAST_SAMPLE_MILLIS}. A sample reads the stat file of every
     * process on the machine (which is what {@link ProcessHandle#descendants()} does): measured on a
     * 2-vCPU VM, 0.8 ms of CPU with 68 processes and 13-15 ms with 468, and with both CPUs taken by
     * bound ranks it comes out of a rank's time. Every 200 ms, as before, that was a 1.9 ms stall of
     * a rank five times a second in {@code sched_switch} traces of the two-process ping-pong. Most
     * children are started early in a job, and the ranks' process groups catch orphans that stayed in
     * them anyway, so later samples can be rare.
     */
    static final long FIRST_SAMPLE_MILLIS = 200;
    /** The longest time between two samples of the ranks' descendants. */
    static final long LAST_SAMPLE_MILLIS = 6400;
    /** How long descendants get to die (and be reaped by a waiting parent) before the ranks themselves are signalled. */
    private static final long DESCENDANTS_FIRST_MILLIS = 500;
    /** How long SIGKILLed processes get to disappear before the launcher reports them and gives up. */
    private static final long KILL_WAIT_MILLIS = 5_000;
    /** How long output still in the pipes gets to reach out/err once the processes are gone. */
    private static final long DRAIN_MILLIS = 2_000;

    /**
     * How a job ended.
     *
     * @param exitCode   0 if every rank exited 0; otherwise the first failing rank's code,
     *                   {@value #TIMEOUT_EXIT_CODE} on timeout, {@value #START_FAILURE_EXIT_CODE} if a rank could not start
     * @param failedRank the rank that failed (or could not start), -1 on success or timeout
     * @param timedOut   whether the timeout ended the job
     */
    public record Result(int exitCode, int failedRank, boolean timedOut) {
    }

    private final PrintStream out;
    private final PrintStream err;
    private final Duration grace;

    /**
     * A launcher with the {@link #DEFAULT_GRACE}.
     *
     * @param out where the ranks' stdout goes, prefixed
     * @param err where the ranks' stderr and the launcher's own messages go
     */
    public RankLauncher(PrintStream out, PrintStream err) {
        this(out, err, DEFAULT_GRACE);
    }

    /**
     * @param out   where the ranks' stdout goes, prefixed
     * @param err   where the ranks' stderr and the launcher's own messages go
     * @param grace how long a stopped rank gets between SIGTERM and SIGKILL (zero or more)
     * @throws MpiException ERR_ARG for a null stream or a negative or null grace
     */
    public RankLauncher(PrintStream out, PrintStream err, Duration grace) {
        if (out == null || err == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "the launcher needs both an out and an err stream, got out="
                    + out + ", err=" + err);
        }
        if (grace == null || grace.isNegative()) {
            throw new MpiException(ErrorClass.ERR_ARG, "the stop grace period must be zero or more, got " + grace);
        }
        this.out = out;
        this.err = err;
        this.grace = grace;
    }

    /**
     * Runs a job to its end (see the class description).
     *
     * @param ranks       how many ranks to start, at least 1
     * @param commandLine each rank's command line (program first), called once per rank before any starts
     * @param environment each rank's extra environment (on top of the launcher's own); may return null for none
     * @param timeout     how long the whole job may run
     * @return how the job ended
     * @throws MpiException ERR_ARG for a bad argument (a rank count below 1, an empty command line,
     *                      a null environment value, a non-positive timeout), before anything starts;
     *                      ERR_OTHER if the calling thread is interrupted (the ranks are stopped first)
     */
    public Result run(int ranks, IntFunction<List<String>> commandLine, IntFunction<Map<String, String>> environment,
            Duration timeout) {
        if (ranks < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "the number of ranks must be at least 1, got " + ranks);
        }
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(environment, "environment");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "the job timeout must be positive, got " + timeout);
        }
        List<List<String>> commands = new ArrayList<>(ranks);
        List<Map<String, String>> envs = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            commands.add(command(r, commandLine.apply(r)));
            envs.add(environment(r, environment.apply(r)));
        }
        Job job = new Job(ranks);
        Thread hook = Thread.ofPlatform().name("jspin-run-shutdown").unstarted(() -> {
            job.terminated = true;
            List<Integer> alive = job.aliveRanks();
            if (!alive.isEmpty()) {
                err.println("jspin run: terminated; stopping ranks " + alive);
            }
            job.stop();
        });
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "not starting " + ranks + " ranks: this JVM is shutting down", e);
        }
        try {
            return supervise(job, commands, envs, timeout);
        } catch (InterruptedException e) {
            List<Integer> alive = job.aliveRanks();
            job.stop();
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while waiting for ranks " + alive + "; stopped them", e);
        } finally {
            job.stop(); // a no-op unless something above threw
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it stops what is left
            }
        }
    }

    private Result supervise(Job job, List<List<String>> commands, List<Map<String, String>> envs, Duration timeout)
            throws InterruptedException {
        int n = commands.size();
        BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
        String launcherPid = Long.toString(ProcessHandle.current().pid());
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int r = 0; r < n; r++) {
            ProcessBuilder pb = new ProcessBuilder(inOwnGroup(commands.get(r)));
            pb.environment().putAll(envs.get(r));
            pb.environment().put(LAUNCHER_PID_ENV, launcherPid);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                err.println("jspin run: cannot start rank " + r + " (" + commands.get(r).getFirst() + "): " + e.getMessage()
                        + (r > 0 ? "; stopping the other ranks" : ""));
                job.stop();
                job.drain();
                return new Result(START_FAILURE_EXIT_CODE, r, false);
            }
            job.started(r, p, out, err);
            int rank = r;
            p.onExit().thenRun(() -> exits.add(rank));
        }
        int left = n;
        long sampleMillis = FIRST_SAMPLE_MILLIS;
        while (left > 0) {
            long wait = deadline - System.nanoTime();
            if (wait <= 0) {
                err.println("jspin run: timed out after " + seconds(timeout) + "; stopping ranks " + job.aliveRanks());
                job.stop();
                job.drain();
                return new Result(TIMEOUT_EXIT_CODE, -1, true);
            }
            Integer r = exits.poll(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(sampleMillis)), TimeUnit.NANOSECONDS);
            if (r == null) {
                job.sampleDescendants();
                sampleMillis = nextSampleMillis(sampleMillis);
                continue;
            }
            left--;
            int code = job.process(r).exitValue();
            if (code != 0) {
                if (job.terminated) {
                    return new Result(code, r, false); // killed by our own shutdown hook, which has said so
                }
                // A killed rank's peers notice within milliseconds and may exit first: gather what
                // failed in a short window, and blame a rank killed by a signal before its peers.
                List<int[]> failed = new ArrayList<>();
                failed.add(new int[] {r, code});
                long window = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BLAME_WINDOW_MILLIS);
                Integer more;
                while (left > 0 && (more = exits.poll(Math.max(0, window - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
                    left--;
                    int c = job.process(more).exitValue();
                    if (c != 0) {
                        failed.add(new int[] {more, c});
                    }
                }
                int[] cause = failed.stream().filter(f -> f[1] > 128).findFirst().orElse(failed.getFirst());
                for (int[] f : failed) {
                    job.drain(f[0]); // their last words before our verdict
                }
                StringBuilder m = new StringBuilder("jspin run: rank " + cause[0]
                        + (cause[1] > 128 ? " was killed by signal " + (cause[1] - 128) + " (exit code " + cause[1] + ")"
                        : " exited with code " + cause[1]));
                for (int[] f : failed) {
                    if (f != cause) {
                        m.append("; rank ").append(f[0]).append(" exited with code ").append(f[1]);
                    }
                }
                err.println(m + (left > 0 ? "; stopping the other ranks" : ""));
                job.stop();
                job.drain();
                return new Result(cause[1], cause[0], false);
            }
        }
        job.stop(); // background processes the ranks left behind
        job.drain();
        return new Result(0, -1, false);
    }

    /**
     * Each rank leads a process group of its own ({@code setsid} execs the command in place, so the
     * pid stays the rank's): a child the rank started at the moment it was stopped, reparented to
     * init and so no longer a descendant, can still be found by its group and stopped.
     */
    private static List<String> inOwnGroup(List<String> cmd) {
        if (SETSID == null || !resolvable(cmd.getFirst())) {
            return cmd; // a program that cannot run fails to start as itself, not as setsid's exit code
        }
        List<String> wrapped = new ArrayList<>(cmd.size() + 1);
        wrapped.add(SETSID);
        wrapped.addAll(cmd);
        return wrapped;
    }

    /** Sends {@code signal} to the process group {@code group}; a group that is gone is no error. */
    private static void signalGroup(long group, String signal) {
        if (SETSID == null || KILL == null) {
            return;
        }
        try {
            Process k = new ProcessBuilder(KILL, "-s", signal, "--", "-" + group).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            k.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill binary after all: the descendant sweep is all we have
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean resolvable(String program) {
        if (program.contains("/")) {
            return java.nio.file.Files.isExecutable(java.nio.file.Path.of(program));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String executable(String path) {
        return java.nio.file.Files.isExecutable(java.nio.file.Path.of(path)) ? path : null;
    }

    private static List<String> command(int rank, List<String> cmd) {
        if (cmd == null || cmd.isEmpty() || cmd.stream().anyMatch(Objects::isNull) || cmd.getFirst().isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "the command line of rank " + rank
                    + " must be a program and its arguments, got " + cmd);
        }
        return List.copyOf(cmd);
    }

    private static Map<String, String> environment(int rank, Map<String, String> env) {
        Map<String, String> copy = new LinkedHashMap<>();
        if (env != null) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getKey() == null || e.getKey().isEmpty() || e.getKey().contains("=") || e.getValue() == null) {
                    throw new MpiException(ErrorClass.ERR_ARG, "the environment of rank " + rank
                            + " has a bad entry '" + e.getKey() + "' = '" + e.getValue() + "'");
                }
                copy.put(e.getKey(), e.getValue());
            }
        }
        return copy;
    }

    /** @return how long after a sample of the ranks' descendants the next one comes, if the last gap was {@code millis} */
    static long nextSampleMillis(long millis) {
        return Math.min(LAST_SAMPLE_MILLIS, 2 * millis);
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

    /** @return {@code d} in seconds for messages: "30 s", "0.5 s" */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** The processes of one job, the threads copying their output, and the descendants seen so far. */
    private final class Job {
        private final Process[] processes;
        private final List<List<Thread>> pumps;
        /** Set by the shutdown hook: ranks dying now were stopped by it, not failures to report. */
        volatile boolean terminated;
        /** Every descendant ever sampled; ProcessHandle compares start times too, so a reused pid is not mistaken for one. */
        private final Set<ProcessHandle> descendants = ConcurrentHashMap.newKeySet();

        Job(int n) {
            processes = new Process[n];
            pumps = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                pumps.add(List.of());
            }
        }

        synchronized void started(int rank, Process p, PrintStream to, PrintStream toErr) {
            processes[rank] = p;
            try {
                p.getOutputStream().close(); // no stdin: a rank reading it sees the end at once
            } catch (IOException e) {
                // nothing to close
            }
            byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
            pumps.set(rank, List.of(
                    Thread.ofPlatform().daemon().name("jspin-run-" + rank + "-out").start(() -> pump(p.getInputStream(), to, prefix)),
                    Thread.ofPlatform().daemon().name("jspin-run-" + rank + "-err").start(() -> pump(p.getErrorStream(), toErr, prefix))));
        }

        synchronized Process process(int rank) {
            return processes[rank];
        }

        synchronized List<Process> processes() {
            List<Process> l = new ArrayList<>();
            for (Process p : processes) {
                if (p != null) {
                    l.add(p);
                }
            }
            return l;
        }

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
        void sweepGroups() {
            for (Process p : processes()) {
                signalGroup(p.pid(), "TERM");
            }
            for (Process p : processes()) {
                signalGroup(p.pid(), "KILL");
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

    /** Copies {@code in} to {@code to} line by line, each line prefixed and written in one call so it stays whole. */
    static void pump(InputStream in, PrintStream to, byte[] prefix) {
        byte[] chunk = new byte[8192];
        byte[] line = new byte[256];
        int len = 0;
        try (in) {
            int r;
            while ((r = in.read(chunk)) >= 0) {
                int from = 0;
                for (int i = 0; i < r; i++) {
                    if (chunk[i] == '\n' || len + (i - from) == MAX_LINE) {
                        line = append(line, len, chunk, from, i - from);
                        len += i - from;
                        emit(to, prefix, line, len);
                        len = 0;
                        from = chunk[i] == '\n' ? i + 1 : i;
                    }
                }
                line = append(line, len, chunk, from, r - from);
                len += r - from;
            }
        } catch (IOException e) {
            // the pipe closed under us: the process is gone; pass on what arrived
        }
        if (len > 0) {
            emit(to, prefix, line, len); // a last line without its newline
        }
    }

    private static byte[] append(byte[] line, int len, byte[] src, int from, int n) {
        if (len + n > line.length) {
            line = Arrays.copyOf(line, Math.max(len + n, Math.min(MAX_LINE, line.length * 2)));
        }
        System.arraycopy(src, from, line, len, n);
        return line;
    }

    private static void emit(PrintStream to, byte[] prefix, byte[] line, int len) {
        byte[] whole = new byte[prefix.length + len + 1];
        System.arraycopy(prefix, 0, whole, 0, prefix.length);
        System.arraycopy(line, 0, whole, prefix.length, len);
        whole[whole.length - 1] = '\n';
        to.write(whole, 0, whole.length); // one call: PrintStream writes it under its lock, whole
        to.flush();
    }
}
