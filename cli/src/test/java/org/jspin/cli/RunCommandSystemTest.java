package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.cli.SystemTestPrograms.Affinity;
import org.jspin.cli.SystemTestPrograms.Hang;
import org.jspin.cli.SystemTestPrograms.LastWords;
import org.jspin.cli.SystemTestPrograms.RankTwoExits;
import org.jspin.cli.SystemTestPrograms.SlowRank;
import org.jspin.cli.SystemTestPrograms.Ring;
import org.jspin.cli.SystemTestPrograms.StreamUntilKilled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jspin run} for real: the launcher is a JVM of its own ({@code java -cp <test class path>
 * org.jspin.cli.Main run ...}) starting real rank JVMs that run the {@link SystemTestPrograms}.
 * Everything a test starts is killed afterwards, and the tests check that the launcher itself
 * left nothing behind.
 */
class RunCommandSystemTest {
    /** How long processes get to be gone once the launcher has exited (it waits for them itself). */
    private static final Duration GONE = Duration.ofSeconds(5);

    private final List<SpawnedProcess> started = new ArrayList<>();

    @TempDir
    Path dir;

    private static long count(String text, String needle) {
        return text.lines().filter(l -> l.contains(needle)).count();
    }

    @AfterEach
    void killEverythingStarted() {
        started.forEach(SpawnedProcess::close);
    }

    private SpawnedProcess jspin(String... args) {
        SpawnedProcess p = SpawnedProcess.start(SpawnedProcess.jspin(args), Map.of());
        started.add(p);
        return p;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threeRanksPassATokenRoundTheRingAndEveryLineCarriesItsRank() throws InterruptedException {
        SpawnedProcess run = jspin("run", "-n", "3", "--timeout", "50", Ring.class.getName());
        int code = run.awaitExit(Duration.ofSeconds(55));
        assertEquals(0, code, run.transcript());

        List<String> out = run.outLines();
        assertFalse(out.isEmpty(), run.transcript());
        for (String line : out) {
            assertTrue(line.matches("\\[[012]] .*"), "a stdout line without a rank prefix: '" + line + "'\n" + run.transcript());
        }
        for (int r = 0; r < 3; r++) {
            int prev = (r + 2) % 3;
            String expected = "[" + r + "] rank " + r + " of 3 received " + Ring.token(prev) + " from rank " + prev;
            assertTrue(out.contains(expected), "missing '" + expected + "'\n" + run.transcript());
        }
        Map<Integer, Long> pids = run.rankPids();
        assertEquals(Set.of(0, 1, 2), pids.keySet(), run.transcript());
        Set<Long> distinct = new HashSet<>(pids.values());
        assertEquals(3, distinct.size(), "every rank is a process of its own: " + pids);
        assertFalse(distinct.contains(run.pid()), "the ranks are not the launcher: " + pids);
        SpawnedProcess.assertAllGone(run.everyProcessSeen(), GONE, run.transcript());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLauncherStartedWithoutJspinsJvmFlagsStillGivesItsRanksWhatTheyNeed() throws InterruptedException {
        // as 'java -jar jspin.jar run' starts it: the manifest's flags reach the launcher, not its ranks
        List<String> cmd = new ArrayList<>(List.of(SpawnedProcess.JAVA, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", "-n", "2", "--timeout", "50",
                Ring.class.getName()));
        SpawnedProcess run = SpawnedProcess.start(cmd, Map.of());
        started.add(run);
        assertEquals(0, run.awaitExit(Duration.ofSeconds(55)), run.transcript());
        for (int r = 0; r < 2; r++) {
            int prev = (r + 1) % 2;
            String expected = "[" + r + "] rank " + r + " of 2 received " + Ring.token(prev) + " from rank " + prev;
            assertTrue(run.outLines().contains(expected), "missing '" + expected + "'\n" + run.transcript());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRankSilentForSecondsIsWaitedForNotTakenForDead() throws InterruptedException {
        SpawnedProcess run = jspin("run", "-n", "2", "--timeout", "50", SlowRank.class.getName(), "6000");
        assertEquals(0, run.awaitExit(Duration.ofSeconds(55)), run.transcript());
        assertTrue(run.outLines().contains("[0] slow rank=0 ok"), run.transcript());
        assertTrue(run.outLines().contains("[1] slow rank=1 ok"), run.transcript());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bindToCorePutsRankROnCpuRAndNoneLeavesEveryCpu() throws InterruptedException, IOException {
        List<Integer> cpus = Binding.allowedCpus(); // this JVM's, which the launcher it starts shares
        SpawnedProcess bound = jspin("run", "-n", "3", "--bind-to", "core", "--timeout", "50", Affinity.class.getName());
        assertEquals(0, bound.awaitExit(Duration.ofSeconds(55)), bound.transcript());
        for (int r = 0; r < 3; r++) {
            String expected = "[" + r + "] rank " + r + " cpus " + cpus.get(r % cpus.size());
            assertTrue(bound.outLines().contains(expected), "missing '" + expected + "'\n" + bound.transcript());
        }
        SpawnedProcess free = jspin("run", "-n", "2", "--timeout", "50", Affinity.class.getName());
        assertEquals(0, free.awaitExit(Duration.ofSeconds(55)), free.transcript());
        String mine = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElseThrow();
        assertTrue(free.outLines().contains("[1] rank 1 cpus " + mine), "unbound by default\n" + free.transcript());
        SpawnedProcess bad = jspin("run", "-n", "2", "--bind-to", "socket", Affinity.class.getName());
        assertNotEquals(0, bad.awaitExit(Duration.ofSeconds(55)));
        assertTrue(bad.transcript().contains("--bind-to must be none or core, got 'socket'"), bad.transcript());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRankExitingWithThreeEndsTheJobWithThreeAndLeavesNoProcessBehind() throws InterruptedException {
        SpawnedProcess run = jspin("run", "-n", "3", "--timeout", "50", RankTwoExits.class.getName());
        run.awaitRankPids(3, Duration.ofSeconds(40));
        run.awaitOut(l -> l.startsWith("[0] child="), Duration.ofSeconds(40), "announcing rank 0's child process");
        run.snapshotDescendants();
        int code = run.awaitExit(Duration.ofSeconds(50));

        assertEquals(3, code, run.transcript());
        assertTrue(run.err().contains("rank 2 exited with code 3"), "the launcher names rank 2\n" + run.transcript());
        assertTrue(run.out().contains("[2] exiting with 3"), run.transcript());
        Set<ProcessHandle> seen = run.everyProcessSeen();
        assertTrue(seen.size() >= 3, "at least the three ranks were seen alive: " + seen + "\n" + run.transcript());
        SpawnedProcess.assertAllGone(seen, GONE, run.transcript());
    }

    /** @return a loopback port p such that p and p + 1 were both free a moment ago */
    private static int twoFreeLoopbackPorts() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket a = new ServerSocket(0, 1, lo)) {
                int p = a.getLocalPort();
                if (p < 65535) {
                    try (ServerSocket b = new ServerSocket(p + 1, 1, lo)) {
                        return p;
                    } catch (IOException taken) {
                        // try another
                    }
                }
            }
        }
        throw new IllegalStateException("no two adjacent free loopback ports");
    }

    /**
     * A fabric port in use (the netty fabric's): {@code JSPIN_BIND=127.0.0.1:P} gives rank r port P + r, and this test
     * holds rank 1's. Rank 1 fails at once with a message naming the address and saying the port
     * is in use (no {@code BindException}, no Netty stack trace); the job ends non-zero naming
     * rank 1, and leaves nothing behind.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFabricPortInUseEndsTheJobNamingTheRankTheAddressAndThePort() throws InterruptedException, IOException {
        int base = twoFreeLoopbackPorts();
        try (ServerSocket taken = new ServerSocket(base + 1, 1, InetAddress.getLoopbackAddress())) {
            SpawnedProcess run = SpawnedProcess.start(SpawnedProcess.jspin("run", "-n", "2", "--fabric", "netty",
                    "--timeout", "50", Ring.class.getName()), Map.of("JSPIN_BIND", "127.0.0.1:" + base));
            started.add(run);
            run.awaitRankPids(2, Duration.ofSeconds(40));
            int code = run.awaitExit(Duration.ofSeconds(50));

            assertEquals(1, code, run.transcript());
            String said = "[1] jspin exec: " + Ring.class.getName() + " failed: ERR_OTHER: rank 1 cannot listen on 127.0.0.1:"
                    + (base + 1) + ": the port is already in use by another socket";
            assertTrue(run.err().contains(said), "missing '" + said + "'\n" + run.transcript());
            assertTrue(run.err().contains("jspin run: rank 1 exited with code 1"), "the launcher names rank 1\n" + run.transcript());
            assertFalse(run.err().contains("BindException") || run.err().contains("io.netty") || run.err().contains("\tat "),
                    "no exception class or stack trace for the user\n" + run.transcript());
            SpawnedProcess.assertAllGone(run.everyProcessSeen(), GONE, run.transcript());
            System.out.println(String.format("fabric port in use: jspin run exited %d after %.1f s: ", code, run.elapsedSeconds())
                    + run.err().lines().filter(l -> l.contains("cannot listen")).findFirst().orElse("?"));
        }
    }

    /** A job of {@link StreamUntilKilled} whose rank 1 the test killed, once data flowed, at {@code killedAt}. */
    private record Killed(SpawnedProcess run, int exitCode, long killedAt, Path report) {
    }

    /** @param rankZeroExits whether rank 0 exits (7) as soon as it has reported, or waits for the launcher to stop it */
    private Killed killRankOneMidTransfer(boolean rankZeroExits) throws InterruptedException {
        Path report = dir.resolve("rank0-report.txt");
        SpawnedProcess run = jspin("run", "-n", "2", "--timeout", "50", StreamUntilKilled.class.getName(), report.toString(),
                rankZeroExits ? "exit" : "wait");
        Map<Integer, Long> pids = run.awaitRankPids(2, Duration.ofSeconds(40));
        run.awaitOut(l -> l.startsWith("[0] flowing bytes="), Duration.ofSeconds(40), "saying that data flows to rank 0");
        ProcessHandle victim = run.announcedHandle(pids.get(1))
                .orElseGet(() -> fail("rank 1 (pid " + pids.get(1) + ") was gone before the kill\n" + run.transcript()));
        assertTrue(run.process().descendants().anyMatch(victim::equals),
                "pid " + victim.pid() + " is a rank of this launcher\n" + run.transcript());
        long killedAt = System.currentTimeMillis();
        assertTrue(victim.destroyForcibly(), "SIGKILL sent");
        int code = run.awaitExit(Duration.ofSeconds(30));
        return new Killed(run, code, killedAt, report);
    }

    /**
     * The words: "killing one rank mid-transfer makes the peers' pending requests fail
     * with a process-failure error class within a few seconds, and {@code jspin run} exits
     * non-zero naming the rank." Rank 0 reports through a file: the launcher stops it as soon as
     * rank 1 is gone, and may drop what it prints after that (see
     * {@link #aStoppedRanksLastWordsReachTheLaunchersOutput}).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void killingARankMidTransferFailsThePeersPendingReceivesWithProcFailedWithinSeconds()
            throws InterruptedException, IOException {
        Killed k = killRankOneMidTransfer(false);
        SpawnedProcess run = k.run();
        assertTrue(Files.exists(k.report()), "rank 0 reported no failure\n" + run.transcript());
        String failed = Files.readString(k.report()).strip();
        Matcher m = Pattern.compile("failed class=(\\w+) at=(\\d+) received=(\\d+) .*").matcher(failed);
        assertTrue(m.matches(), failed);
        assertEquals("ERR_PROC_FAILED", m.group(1), failed);
        long noticedAfter = Long.parseLong(m.group(2)) - k.killedAt();
        assertTrue(noticedAfter >= 0 && noticedAfter < 5_000,
                "rank 0 noticed " + noticedAfter + " ms after the kill\n" + run.transcript());
        assertTrue(Long.parseLong(m.group(3)) > 0, failed);
        System.out.println("rank 0 saw ERR_PROC_FAILED " + noticedAfter + " ms after rank 1 was killed; jspin run exited "
                + k.exitCode() + String.format(" %.1f s after its start", run.elapsedSeconds()));

        assertNotEquals(0, k.exitCode(), run.transcript());
        assertTrue(run.err().contains("rank 1 was killed by signal 9"), "the launcher names rank 1\n" + run.transcript());
        SpawnedProcess.assertAllGone(run.everyProcessSeen(), GONE, run.transcript());
    }

    /**
     * As above, but rank 0 exits (7) the moment it has reported, as a real program does: the
     * launcher should still name rank 1, the one that was killed, not the peer that noticed.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theLauncherNamesTheKilledRankEvenWhenAPeerExitsFirst() throws InterruptedException {
        Killed k = killRankOneMidTransfer(true);
        assertNotEquals(0, k.exitCode(), k.run().transcript());
        assertTrue(k.run().err().contains("rank 1 was killed by signal 9"), "the launcher names rank 1\n" + k.run().transcript());
    }

    /** What a rank prints while {@code jspin run} stops it (from a shutdown hook, on SIGTERM) reaches the launcher's output. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStoppedRanksLastWordsReachTheLaunchersOutput() throws InterruptedException {
        SpawnedProcess run = jspin("run", "-n", "2", "--timeout", "50", LastWords.class.getName());
        int code = run.awaitExit(Duration.ofSeconds(50));
        assertEquals(3, code, run.transcript());
        assertTrue(run.out().contains("[0] last words"), "rank 0's shutdown hook output was dropped\n" + run.transcript());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHangingJobTimesOutWith124AndLeavesNoProcessBehind() throws InterruptedException {
        SpawnedProcess run = jspin("run", "-n", "3", "--timeout", "3", Hang.class.getName());
        // the first rank to speak: by then the launcher has started all three (a snapshot of its descendants is taken
        // at every pid= and child= line); on a loaded machine some may not get further than that before the timeout
        run.awaitOut(l -> l.matches("\\[[012]] pid=\\d+"), Duration.ofSeconds(20), "from a rank");
        run.snapshotDescendants();
        int code = run.awaitExit(Duration.ofSeconds(30));

        assertEquals(124, code, run.transcript());
        assertTrue(run.err().contains("timed out after 3 s"), run.transcript());
        assertTrue(run.elapsedSeconds() >= 3, "not before the timeout: " + run.elapsedSeconds() + " s");
        assertFalse(run.out().contains("unblocked"), run.transcript());
        Set<ProcessHandle> seen = run.everyProcessSeen();
        assertTrue(seen.size() >= 3, "at least the three ranks were seen alive: " + seen + "\n" + run.transcript());
        System.out.println("timed-out job: " + seen.size() + " processes seen, " + count(run.out(), "child=")
                + " of them children of ranks; all gone");
        SpawnedProcess.assertAllGone(seen, GONE, run.transcript());
    }
}
