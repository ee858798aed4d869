package org.jspin.bootstrap.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
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
    /** How long after a rank's failure the launcher waits for others before it names the cause. */
    private static final long BLAME_WINDOW_MILLIS = 200;
    /** How long stopped ranks get between SIGTERM and SIGKILL unless told otherwise. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    /**
     * When the descendants of running ranks are first sampled; each later sample comes twice as long
     * after the one before, up to {@link #LAST_SAMPLE_MILLIS}. A sample reads the stat file of every
     * process on the machine (which is what {@link ProcessHandle#descendants()} does), and with both
     * CPUs taken by bound ranks it comes out of a rank's time (docs/PERFORMANCE.md, "RankLauncher"). Most
     * children are started early in a job, and the ranks' process groups catch orphans that stayed in
     * them anyway, so later samples can be rare.
     */
    static final long FIRST_SAMPLE_MILLIS = 200;
    /** The longest time between two samples of the ranks' descendants. */
    static final long LAST_SAMPLE_MILLIS = 6400;

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
        JobProcesses job = new JobProcesses(ranks, err, grace);
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

    private Result supervise(JobProcesses job, List<List<String>> commands, List<Map<String, String>> envs, Duration timeout)
            throws InterruptedException {
        int n = commands.size();
        BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
        String launcherPid = Long.toString(ProcessHandle.current().pid());
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int r = 0; r < n; r++) {
            ProcessBuilder pb = new ProcessBuilder(ProcessGroups.inOwnGroup(commands.get(r)));
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
                FailedRanks failed = new FailedRanks();
                failed.add(r, code);
                long window = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BLAME_WINDOW_MILLIS);
                Integer more;
                while (left > 0 && (more = exits.poll(Math.max(0, window - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
                    left--;
                    int c = job.process(more).exitValue();
                    if (c != 0) {
                        failed.add(more, c);
                    }
                }
                for (int f : failed.ranks()) {
                    job.drain(f); // their last words before our verdict
                }
                err.println(failed.report() + (left > 0 ? "; stopping the other ranks" : ""));
                job.stop();
                job.drain();
                return new Result(failed.causeCode(), failed.causeRank(), false);
            }
        }
        job.stop(); // background processes the ranks left behind
        job.drain();
        return new Result(0, -1, false);
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

    /** @return {@code d} in seconds for messages: "30 s", "0.5 s" */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }
}
