package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process a system test started: its stdout and stderr collected line by line (waiters are
 * signalled as lines arrive), the pids its programs announce ({@code pid=N} and {@code child=N}
 * lines, bare or behind a {@code [rank] } prefix) captured as {@link ProcessHandle}s the moment
 * they are read (with a snapshot of every process below this one at that moment), and
 * {@link #close()} that kills it with everything below it.
 */
final class SpawnedProcess implements AutoCloseable {
    /** This JVM's java binary: the JDK 25 the tests run on. */
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /**
     * Flags of every JVM a test starts (the launcher passes its own on to its ranks): jspin's, plus
     * a small heap, the serial collector and C1 only, which keep many short-lived JVMs cheap (C1
     * alone roughly halves the wall time of four halo2d ranks on two busy cores).
     */
    static final List<String> JVM_FLAGS = List.of("--add-modules", "jdk.incubator.vector",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "-Xss4m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** Environment variables by which a launcher announces a job; none may leak from the test's own environment. */
    private static final List<String> LAUNCHER_PREFIXES = List.of("JSPIN_", "PMI_", "PMIX_", "SLURM_", "OMPI_", "HYDRA_",
            "HYDI_", "MPI_", "MPIEXEC_");
    private static final Pattern PID = Pattern.compile("^(?:\\[(\\d+)] )?(pid|child)=(\\d+)$");

    private final List<String> command;
    private final Process process;
    private final long startNanos = System.nanoTime();
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Map<Integer, Long> rankPids = new LinkedHashMap<>();
    /** Announced processes that were alive when their line was read, by pid. */
    private final Map<Long, ProcessHandle> announced = new LinkedHashMap<>();
    private final Set<ProcessHandle> seenBelow = new LinkedHashSet<>();
    private final Thread outPump;
    private final Thread errPump;
    private volatile long exitNanos;
    private boolean outClosed;
    private boolean errClosed;

    private SpawnedProcess(List<String> command, Map<String, String> env) {
        this.command = List.copyOf(command);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> LAUNCHER_PREFIXES.stream().anyMatch(k::startsWith));
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        process.onExit().thenRun(() -> exitNanos = System.nanoTime());
        outPump = Thread.ofPlatform().daemon().name("spawned-out-" + process.pid()).start(() -> pump(process.getInputStream(), out, true));
        errPump = Thread.ofPlatform().daemon().name("spawned-err-" + process.pid()).start(() -> pump(process.getErrorStream(), err, false));
    }

    /** Starts {@code command} with {@code env} on top of the test's environment (minus any launcher's variables). */
    static SpawnedProcess start(List<String> command, Map<String, String> env) {
        return new SpawnedProcess(command, env);
    }

    /** @return {@code java <flags> -cp <the test class path> org.jspin.cli.Main args...} */
    static List<String> jspin(String... args) {
        List<String> cmd = new ArrayList<>(javaCommand());
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * {@link #jspin} with both JIT compilers, for a run that moves much data: under C1 alone the
     * Vector API's kernels run boxed (the load test's random traffic took 38 s so, 7-10 s tiered).
     */
    static List<String> jspinFullJit(String... args) {
        List<String> cmd = jspin(args);
        cmd.remove("-XX:TieredStopAtLevel=1");
        return cmd;
    }

    /** @return {@code java <flags> -cp <the test class path>}, a main class and its arguments to follow */
    static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(JAVA);
        cmd.addAll(JVM_FLAGS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }

    /** @return a port on the loopback address nothing listened on a moment ago */
    static int freeLoopbackPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the absolute path of {@code name} on the PATH, if it is there */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    private void pump(InputStream in, List<String> into, boolean isOut) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Matcher m = PID.matcher(line);
                ProcessHandle h = null;
                if (m.matches()) {
                    h = ProcessHandle.of(Long.parseLong(m.group(3))).orElse(null);
                    snapshotDescendants(); // whatever else runs below by now
                }
                synchronized (this) {
                    into.add(line);
                    if (m.matches()) {
                        if (h != null) {
                            announced.put(h.pid(), h);
                        }
                        if (m.group(2).equals("pid") && m.group(1) != null) {
                            rankPids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(3)));
                        }
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone; what arrived is kept
        } finally {
            synchronized (this) {
                if (isOut) {
                    outClosed = true;
                } else {
                    errClosed = true;
                }
                notifyAll();
            }
        }
    }

    /** @return the process */
    Process process() {
        return process;
    }

    /** @return the process's pid */
    long pid() {
        return process.pid();
    }

    /** @return seconds from the start to the exit, or to now while it runs */
    double elapsedSeconds() {
        long end = exitNanos;
        return ((end != 0 ? end : System.nanoTime()) - startNanos) / 1e9;
    }

    /**
     * Waits for a stdout line matching {@code p} (signalled as lines arrive).
     *
     * @return the first such line
     */
    String awaitOut(Predicate<String> p, Duration timeout, String what) throws InterruptedException {
        return awaitOut(p, 1, timeout, what).getFirst();
    }

    /**
     * Waits until {@code n} stdout lines match {@code p}.
     *
     * @return the first {@code n} such lines
     */
    List<String> awaitOut(Predicate<String> p, int n, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (true) {
                List<String> found = out.stream().filter(p).limit(n).toList();
                if (found.size() == n) {
                    return found;
                }
                long left = deadline - System.nanoTime();
                if (outClosed || left <= 0) {
                    return fail("expected " + n + " stdout line(s) " + what + ", got " + found.size()
                            + (outClosed ? " before stdout closed" : " within " + timeout) + "\n" + transcript());
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    /** Waits until {@code n} ranks ({@code [r] pid=N} lines) have announced themselves. */
    Map<Integer, Long> awaitRankPids(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (rankPids.size() < n) {
                long left = deadline - System.nanoTime();
                if (outClosed || left <= 0) {
                    return fail("expected " + n + " ranks to print pid=..., got " + rankPids.keySet() + "\n" + transcript());
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return Map.copyOf(rankPids);
        }
    }

    /** Records every process now below this one, for {@link #everyProcessSeen()}. */
    void snapshotDescendants() {
        List<ProcessHandle> now = process.descendants().toList();
        synchronized (this) {
            seenBelow.addAll(now);
        }
    }

    /**
     * Waits for the exit; on timeout the process tree is killed and the test fails.
     *
     * @return the exit code, once the output has been read to its end (bounded)
     */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            String t = transcript();
            close();
            return fail("still running after " + timeout + "; killed it\n" + t);
        }
        outPump.join(Duration.ofSeconds(5));
        errPump.join(Duration.ofSeconds(5));
        return process.exitValue();
    }

    /** @return stdout so far, one line each */
    synchronized List<String> outLines() {
        return List.copyOf(out);
    }

    /** @return stdout so far */
    synchronized String out() {
        return String.join("\n", out);
    }

    /** @return stderr so far */
    synchronized String err() {
        return String.join("\n", err);
    }

    /** @return the pids of the ranks that printed {@code [r] pid=N}, by rank */
    synchronized Map<Integer, Long> rankPids() {
        return Map.copyOf(rankPids);
    }

    /** @return the handle of an announced process, taken while it was alive (so a reused pid is not mistaken for it) */
    synchronized Optional<ProcessHandle> announcedHandle(long pid) {
        return Optional.ofNullable(announced.get(pid));
    }

    /** @return every process announced ({@code pid=}, {@code child=}) or seen below this one by {@link #snapshotDescendants()} */
    synchronized Set<ProcessHandle> everyProcessSeen() {
        Set<ProcessHandle> all = new LinkedHashSet<>(announced.values());
        all.addAll(seenBelow);
        return all;
    }

    /** @return the command, exit state, stdout and stderr, for a failure message */
    synchronized String transcript() {
        return "command: " + String.join(" ", command.stream().map(a -> a.length() > 120 ? a.substring(0, 60) + "..." : a).toList())
                + "\nexit: " + (process.isAlive() ? "still running" : process.exitValue())
                + String.format(" after %.1f s", elapsedSeconds())
                + "\n--- stdout ---\n" + tail(out) + "\n--- stderr ---\n" + tail(err);
    }

    private static String tail(List<String> lines) {
        int from = Math.max(0, lines.size() - 60);
        return (from > 0 ? "... (" + from + " lines)\n" : "") + String.join("\n", lines.subList(from, lines.size()));
    }

    /**
     * Fails unless every process in {@code handles} is gone within {@code timeout}, waiting on
     * each one's exit (not polling in the test).
     */
    static void assertAllGone(Collection<ProcessHandle> handles, Duration timeout, String context)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> alive = new ArrayList<>();
        for (ProcessHandle h : handles) {
            long left = Math.max(0, deadline - System.nanoTime());
            try {
                h.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                alive.add(h.pid() + " (" + h.info().commandLine().orElse("?") + ")");
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
        if (!alive.isEmpty()) {
            fail("left behind after " + timeout + ": " + alive + "\n" + context);
        }
    }

    /** Kills the process and everything below it (SIGKILL), and waits briefly for them to go. */
    @Override
    public void close() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        synchronized (this) {
            tree.addAll(announced.values());
            tree.addAll(seenBelow);
        }
        tree.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
            for (ProcessHandle h : tree) {
                h.onExit().get(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // best effort: reported by the tests that check for orphans
        }
    }
}
