package org.jspin.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher with real child processes ({@code sh -c} scripts, and a launcher JVM of its own). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RankLauncherTest {
    /** A rank that waits a minute on a background child: a process tree to leave no orphan of. */
    private static final String SLEEPER = "sleep 60 & echo \"child $!\"; echo \"self $$\"; wait";
    private static final Pattern PID = Pattern.compile("^\\[(\\d+)] (self|child) (\\d+)$", Pattern.MULTILINE);

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private static IntFunction<List<String>> sh(IntFunction<String> script) {
        return r -> List.of("sh", "-c", script.apply(r));
    }

    private static IntFunction<Map<String, String>> rankEnv() {
        return r -> Map.of("R", Integer.toString(r));
    }

    /** @return the pids the ranks printed as "self P" / "child C" */
    private static List<Long> pids(String output) {
        List<Long> pids = new ArrayList<>();
        Matcher m = PID.matcher(output);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(3)));
        }
        return pids;
    }

    /**
     * Asserts that none of the printed processes is left. The ranks themselves ("self") must be
     * gone outright when the launcher returns: they are its children and it reaps them. Their
     * children must no longer run then, but may still be zombies: one killed after its parent is
     * re-parented to PID 1, which reaps on its own schedule (about once a second in this sandbox),
     * so they must merely disappear ({@code !isAlive()}) soon after.
     */
    private static void assertGone(String output) throws InterruptedException {
        List<ProcessHandle> zombies = new ArrayList<>();
        Matcher m = PID.matcher(output);
        while (m.find()) {
            long pid = Long.parseLong(m.group(3));
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (m.group(2).equals("self")) {
                assertFalse(h.isPresent() && h.get().isAlive(), () -> "rank process " + pid + " is still alive");
            } else if (h.isPresent()) {
                assertFalse(Processes.running(h.get()), () -> "descendant " + pid + " is still running");
                zombies.add(h.get());
            }
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle h : zombies) {
            while (h.isAlive() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertFalse(h.isAlive(), () -> "descendant " + h.pid() + " was never reaped");
        }
    }

    private static void assertContains(String haystack, String needle) {
        assertTrue(haystack.contains(needle), () -> "'" + haystack + "' does not mention '" + needle + "'");
    }

    @Test
    void allRanksSucceedAndEveryLineArrivesWholeAndPrefixed() {
        String x = "x".repeat(10_000);
        RankLauncher.Result r = new RankLauncher(out, err).run(3,
                sh(rank -> "echo \"hello from $R\"; head -c 10000 /dev/zero | tr '\\000' x; echo; echo \"oops $R\" >&2;"
                        + " echo \"launcher $" + RankLauncher.LAUNCHER_PID_ENV + "\"; printf 'no newline'"),
                rankEnv(), Duration.ofSeconds(20));
        assertEquals(new RankLauncher.Result(0, -1, false), r);
        List<String> outLines = out().lines().toList();
        List<String> errLines = err().lines().toList();
        for (int rank = 0; rank < 3; rank++) {
            String p = "[" + rank + "] ";
            assertTrue(outLines.contains(p + "hello from " + rank), out());
            assertTrue(outLines.contains(p + x), "the 10,000-character line of rank " + rank + " is not whole");
            assertTrue(outLines.contains(p + "launcher " + ProcessHandle.current().pid()), out());
            assertTrue(outLines.contains(p + "no newline"), out());
            assertTrue(errLines.contains(p + "oops " + rank), err());
        }
        assertEquals(12, outLines.size(), out());
        assertEquals(3, errLines.size(), err());
    }

    @Test
    void concurrentRanksNeverInterleaveMidLine() {
        int n = 6;
        int lines = 300;
        String y = "y".repeat(3_000);
        RankLauncher.Result r = new RankLauncher(out, err).run(n,
                sh(rank -> "i=0; while [ $i -lt " + lines + " ]; do echo \"$R $i $Y\"; i=$((i+1)); done"),
                rank -> Map.of("R", Integer.toString(rank), "Y", y), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), err());
        int[] next = new int[n];
        Pattern line = Pattern.compile("\\[(\\d)] (\\d) (\\d+) (y+)");
        for (String l : out().lines().toList()) {
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), () -> "a mangled line: " + l.substring(0, Math.min(80, l.length())));
            int rank = Integer.parseInt(m.group(1));
            assertEquals(m.group(1), m.group(2));
            assertEquals(next[rank]++, Integer.parseInt(m.group(3)), "rank " + rank + "'s lines in order");
            assertEquals(y.length(), m.group(4).length());
        }
        for (int rank = 0; rank < n; rank++) {
            assertEquals(lines, next[rank], "lines of rank " + rank);
        }
    }

    @Test
    void aFailingRankStopsTheOthersAndTheirChildren() throws InterruptedException {
        long t0 = System.nanoTime();
        RankLauncher.Result r = new RankLauncher(out, err).run(4,
                sh(rank -> rank == 2 ? "sleep 1; echo bye; exit 3" : SLEEPER), rankEnv(), Duration.ofSeconds(30));
        long took = System.nanoTime() - t0;
        assertEquals(new RankLauncher.Result(3, 2, false), r);
        assertContains(err(), "jspin run: rank 2 exited with code 3; stopping the other ranks");
        assertContains(out(), "[2] bye");
        List<Long> pids = pids(out());
        assertEquals(6, pids.size(), out()); // three ranks, a child each
        assertGone(out());
        assertTrue(took < TimeUnit.SECONDS.toNanos(10), "took " + took / 1_000_000 + " ms");
    }

    @Test
    void theTimeoutStopsEveryRankEvenOnesIgnoringSigterm() throws InterruptedException {
        RankLauncher.Result r = new RankLauncher(out, err, Duration.ofMillis(500)).run(2,
                sh(rank -> rank == 0 ? "trap '' TERM; " + SLEEPER : SLEEPER), rankEnv(), Duration.ofSeconds(1));
        assertEquals(new RankLauncher.Result(RankLauncher.TIMEOUT_EXIT_CODE, -1, true), r);
        assertContains(err(), "jspin run: timed out after 1 s; stopping ranks [0, 1]");
        List<Long> pids = pids(out());
        assertEquals(4, pids.size(), out());
        assertGone(out());
        assertFalse(err().contains("could not stop"), err());
    }

    @Test
    void whatSucceedingRanksLeaveBehindIsStoppedToo() throws InterruptedException {
        RankLauncher.Result r = new RankLauncher(out, err).run(2,
                sh(rank -> "sleep 60 & echo \"child $!\"; sleep 1"), rankEnv(), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), err());
        List<Long> pids = pids(out());
        assertEquals(2, pids.size(), out());
        assertGone(out());
    }

    /**
     * A child that left its rank's process group (its own session) and outlives the rank: only the
     * launcher's samples of the ranks' descendants know it, the first at 0.2 s, long before the rank
     * exits. Without them it would run on.
     */
    @Test
    void aChildInASessionOfItsOwnIsStoppedToo() throws InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs util-linux's setsid");
        RankLauncher.Result r = new RankLauncher(out, err).run(2,
                sh(rank -> "/usr/bin/setsid sleep 60 & echo \"child $!\"; sleep 1"), rankEnv(), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), err());
        List<Long> pids = pids(out());
        assertEquals(2, pids.size(), out());
        assertGone(out());
    }

    @Test
    void samplesOfTheDescendantsThinOutToALongestGap() {
        long gap = RankLauncher.FIRST_SAMPLE_MILLIS;
        List<Long> gaps = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            gaps.add(gap);
            gap = RankLauncher.nextSampleMillis(gap);
        }
        assertEquals(List.of(200L, 400L, 800L, 1600L, 3200L, 6400L, 6400L, 6400L), gaps);
    }

    @Test
    void aRankThatCannotStartEndsTheJob() throws InterruptedException {
        RankLauncher.Result r = new RankLauncher(out, err).run(3,
                rank -> rank == 1 ? List.of("/nonexistent/jspin-rank") : List.of("sh", "-c", SLEEPER), rankEnv(),
                Duration.ofSeconds(20));
        assertEquals(new RankLauncher.Result(RankLauncher.START_FAILURE_EXIT_CODE, 1, false), r);
        assertContains(err(), "jspin run: cannot start rank 1 (/nonexistent/jspin-rank)");
        assertGone(out());
    }

    @Test
    void terminatingTheLauncherStopsItsRanks(@TempDir Path tmp) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File errFile = tmp.resolve("err").toFile();
        Process launcher = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                HookedLauncherMain.class.getName(), "2", SLEEPER).redirectError(errFile).start();
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            while (pids(seen.toString()).size() < 4) {
                String line = in.readLine();
                assertTrue(line != null, () -> "the launcher ended early; its output: " + seen + read(errFile));
                seen.append(line).append('\n');
            }
            launcher.destroy(); // SIGTERM: the shutdown hook must stop the ranks
            assertTrue(launcher.waitFor(20, TimeUnit.SECONDS), "the launcher did not exit");
            assertEquals(143, launcher.exitValue());
            String errText = read(errFile);
            assertContains(errText, "jspin run: terminated; stopping ranks [0, 1]");
            assertFalse(errText.contains("exited with code"), "ranks the hook stopped are not reported as failures: " + errText);
            assertGone(seen.toString());
        } finally {
            launcher.destroyForcibly();
        }
    }

    private static String read(File f) {
        try {
            return Files.readString(f.toPath());
        } catch (java.io.IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingStarts() {
        RankLauncher l = new RankLauncher(out, err);
        Duration t = Duration.ofSeconds(1);
        assertArg(() -> l.run(0, sh(r -> "true"), rankEnv(), t), "got 0");
        assertArg(() -> l.run(2, r -> r == 1 ? List.of() : List.of("true"), rankEnv(), t), "rank 1");
        assertArg(() -> l.run(1, sh(r -> "true"), r -> java.util.Collections.singletonMap("K", null), t), "'K'");
        assertArg(() -> l.run(1, sh(r -> "true"), rankEnv(), Duration.ZERO), "PT0S");
        assertArg(() -> new RankLauncher(out, err, Duration.ofSeconds(-1)), "PT-1S");
        assertEquals("", out() + err());
    }

    @Test
    void secondsAreFormattedForMessages() {
        assertEquals("30 s", RankLauncher.seconds(Duration.ofSeconds(30)));
        assertEquals("0.5 s", RankLauncher.seconds(Duration.ofMillis(500)));
        assertEquals("1.25 s", RankLauncher.seconds(Duration.ofMillis(1250)));
    }

    private static void assertArg(org.junit.jupiter.api.function.Executable call, String mention) {
        MpiException e = assertThrows(MpiException.class, call);
        assertEquals(ErrorClass.ERR_ARG, e.errorClass(), e::getMessage);
        assertContains(e.getMessage(), mention);
    }
}
