package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jspin exec} under launchers other than {@code jspin run}: MPICH's Hydra (PMI-1 over
 * PMI_FD, and over PMI_PORT), Open MPI's {@code mpirun}, and Slurm's variables (set by the test,
 * there being no {@code srun}), each running the real halo2d example as separate JVMs.
 */
class ExternalLaunchersSystemTest {
    private static final String BIT_IDENTICAL = "max abs error        0 (bit-identical to the serial run)";
    private static final String[] HALO2D = {"exec", "halo2d", "--size", "64", "--iterations", "20"};

    private final List<SpawnedProcess> started = new ArrayList<>();

    @AfterEach
    void killEverythingStarted() {
        started.forEach(SpawnedProcess::close);
    }

    private SpawnedProcess start(List<String> command, Map<String, String> env) {
        SpawnedProcess p = SpawnedProcess.start(command, env);
        started.add(p);
        return p;
    }

    /** @return {@code launcherArgs} followed by {@code java ... org.jspin.cli.Main exec halo2d ...} */
    private static List<String> underLauncher(List<String> launcherArgs) {
        List<String> cmd = new ArrayList<>(launcherArgs);
        cmd.addAll(SpawnedProcess.jspin(HALO2D));
        return cmd;
    }

    private static String secret() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static long count(String text, String needle) {
        return text.lines().filter(l -> l.contains(needle)).count();
    }

    /** The report of one real job of {@code ranks} ranks, printed once (by rank 0), and no other. */
    private static void assertOneReport(SpawnedProcess p, int ranks) {
        String out = p.out();
        assertEquals(1, count(out, BIT_IDENTICAL), "one bit-identical report\n" + p.transcript());
        assertEquals(1, count(out, "halo2d: "), "one report, not one per rank\n" + p.transcript());
        assertTrue(out.contains("grid on " + ranks + " ranks"), "a world of " + ranks + "\n" + p.transcript());
    }

    @ParameterizedTest(name = "mpiexec.hydra {0} -n 4")
    @ValueSource(strings = {"", "-pmi-port"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void hydraRunsFourRanksBitIdentical(String pmiMode) throws InterruptedException {
        Path hydra = SpawnedProcess.onPath("mpiexec.hydra").orElseGet(() -> fail("mpiexec.hydra (MPICH's Hydra) is not"
                + " on the PATH; ./jspin test installs Debian's mpich package, or run apt-get install mpich"));
        List<String> args = new ArrayList<>(List.of(hydra.toString()));
        if (!pmiMode.isEmpty()) {
            args.add(pmiMode);
        }
        args.addAll(List.of("-n", "4"));
        SpawnedProcess p = start(underLauncher(args), Map.of());
        int code = p.awaitExit(Duration.ofSeconds(55));
        assertEquals(0, code, p.transcript());
        assertOneReport(p, 4);
        System.out.printf("mpiexec.hydra %s-n 4 halo2d: %.1f s%n", pmiMode.isEmpty() ? "" : pmiMode + " ", p.elapsedSeconds());
    }

    /** The sim backend across processes: under jspin run, and under Hydra chosen by JSPIN_BACKEND. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theSimBackendRunsHalo2dAsFourProcessesBitIdenticalUnderJspinRunAndHydra() throws InterruptedException {
        SpawnedProcess run = start(SpawnedProcess.jspin("run", "-n", "4", "--backend", "sim", "--timeout", "50",
                "halo2d", "--size", "64", "--iterations", "20"), Map.of());
        assertEquals(0, run.awaitExit(Duration.ofSeconds(55)), run.transcript());
        assertOneReport(run, 4);
        assertTrue(run.out().contains("backend sim"), run.transcript());

        Path hydra = SpawnedProcess.onPath("mpiexec.hydra").orElseGet(() -> fail("mpiexec.hydra is not on the PATH"));
        SpawnedProcess p = start(underLauncher(List.of(hydra.toString(), "-n", "4")), Map.of("JSPIN_BACKEND", "sim"));
        assertEquals(0, p.awaitExit(Duration.ofSeconds(55)), p.transcript());
        assertOneReport(p, 4);
        assertTrue(p.out().contains("backend sim"), p.transcript());
        System.out.printf("sim backend, 4 processes halo2d: jspin run %.1f s, mpiexec.hydra %.1f s%n",
                run.elapsedSeconds(), p.elapsedSeconds());
    }

    /** Every example, small: on the sim backend under jspin run, and on the host backend under Hydra. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"halo2d --size 48 --iterations 10", "halo3d --size 12 --iterations 5",
        "fft2d --size 32 --iterations 2", "particles --size 2000 --iterations 5"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyExampleRunsAsProcessesUnderJspinRunAndHydraOnBothBackends(String example) throws InterruptedException {
        List<String> args = List.of(example.split(" "));
        List<String> run = new ArrayList<>(List.of("run", "-n", "4", "--backend", "sim", "--timeout", "50"));
        run.addAll(args);
        SpawnedProcess p = start(SpawnedProcess.jspin(run.toArray(String[]::new)), Map.of());
        assertEquals(0, p.awaitExit(Duration.ofSeconds(55)), p.transcript());
        assertTrue(p.out().contains("backend sim") && p.out().contains("[0] " + args.getFirst() + ": "), p.transcript());

        Path hydra = SpawnedProcess.onPath("mpiexec.hydra").orElseGet(() -> fail("mpiexec.hydra is not on the PATH"));
        List<String> exec = new ArrayList<>(List.of(hydra.toString(), "-n", "2"));
        exec.addAll(SpawnedProcess.jspin("exec"));
        exec.addAll(args);
        SpawnedProcess h = start(exec, Map.of("JSPIN_BACKEND", "host"));
        assertEquals(0, h.awaitExit(Duration.ofSeconds(55)), h.transcript());
        assertEquals(1, count(h.out(), args.getFirst() + ": "), "one report\n" + h.transcript());
        assertTrue(h.out().contains("backend host"), h.transcript());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void openMpiMpirunRunsTwoRanksBitIdentical() throws InterruptedException {
        Path mpirun = openMpiLauncher().orElseGet(() -> fail("Open MPI's launcher is not on the PATH (neither"
                + " mpirun.openmpi nor an mpirun whose --version says Open MPI); ./jspin test installs Debian's"
                + " openmpi-bin package, or run apt-get install openmpi-bin"));
        Map<String, String> env = Map.of("JSPIN_RENDEZVOUS", "127.0.0.1:" + SpawnedProcess.freeLoopbackPort(),
                "JSPIN_SECRET", secret());
        SpawnedProcess p = start(underLauncher(List.of(mpirun.toString(), "--allow-run-as-root", "--oversubscribe",
                "-n", "2", "-x", "JSPIN_RENDEZVOUS", "-x", "JSPIN_SECRET")), env);
        int code = p.awaitExit(Duration.ofSeconds(55));
        assertEquals(0, code, p.transcript());
        assertOneReport(p, 2);
        System.out.printf("mpirun -n 2 halo2d: %.1f s%n", p.elapsedSeconds());
    }

    /**
     * Open MPI's own launcher: {@code mpirun.openmpi} (Debian's name for it), else an {@code mpirun}
     * that says it is Open MPI's. A bare {@code mpirun} is an alternatives link that may as well be
     * MPICH's Hydra, which refuses Open MPI's flags.
     */
    private static Optional<Path> openMpiLauncher() throws InterruptedException {
        Optional<Path> named = SpawnedProcess.onPath("mpirun.openmpi");
        if (named.isPresent()) {
            return named;
        }
        Optional<Path> mpirun = SpawnedProcess.onPath("mpirun");
        if (mpirun.isEmpty()) {
            return Optional.empty();
        }
        try (SpawnedProcess version = SpawnedProcess.start(List.of(mpirun.get().toString(), "--version"), Map.of())) {
            version.awaitExit(Duration.ofSeconds(20));
            return (version.out() + version.err()).contains("Open MPI") ? mpirun : Optional.empty();
        }
    }

    private static Map<String, String> slurm(int procId, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("SLURM_PROCID", Integer.toString(procId));
        env.put("SLURM_NTASKS", "2");
        env.put("SLURM_JOB_ID", Long.toString(ProcessHandle.current().pid()));
        return env;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoProcessesWithSlurmsVariablesRunHalo2dBitIdentical() throws InterruptedException {
        Map<String, String> shared = Map.of("JSPIN_RENDEZVOUS", "127.0.0.1:" + SpawnedProcess.freeLoopbackPort(),
                "JSPIN_SECRET", secret());
        SpawnedProcess rank0 = start(SpawnedProcess.jspin(HALO2D), slurm(0, shared));
        SpawnedProcess rank1 = start(SpawnedProcess.jspin(HALO2D), slurm(1, shared));
        assertEquals(0, rank0.awaitExit(Duration.ofSeconds(55)), rank0.transcript());
        assertEquals(0, rank1.awaitExit(Duration.ofSeconds(10)), rank1.transcript());
        assertOneReport(rank0, 2);
        assertFalse(rank1.out().contains("halo2d: "), "only rank 0 reports\n" + rank1.transcript());
        System.out.printf("Slurm variables, 2 ranks halo2d: %.1f s%n", Math.max(rank0.elapsedSeconds(), rank1.elapsedSeconds()));
    }

    /**
     * Under a launcher that announces two ranks, a bootstrap that cannot work fails loudly and
     * soon; it never carries on as a world of one: no JSPIN_RENDEZVOUS at all; rank 0 whose peer
     * never comes; rank 1 whose rank 0 never comes (both with JSPIN_CONNECT_TIMEOUT=2).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBrokenSlurmBootstrapFailsLoudlyWithinSecondsAndNeverRunsAsAWorldOfOne() throws InterruptedException {
        int served = SpawnedProcess.freeLoopbackPort();
        int unserved = SpawnedProcess.freeLoopbackPort();
        while (unserved == served) {
            unserved = SpawnedProcess.freeLoopbackPort();
        }
        SpawnedProcess noRendezvous = start(SpawnedProcess.jspin(HALO2D), slurm(1, Map.of()));
        SpawnedProcess lonelyRankZero = start(SpawnedProcess.jspin(HALO2D), slurm(0, Map.of(
                "JSPIN_RENDEZVOUS", "127.0.0.1:" + served, "JSPIN_SECRET", secret(), "JSPIN_CONNECT_TIMEOUT", "2")));
        SpawnedProcess lonelyRankOne = start(SpawnedProcess.jspin(HALO2D), slurm(1, Map.of(
                "JSPIN_RENDEZVOUS", "127.0.0.1:" + unserved, "JSPIN_SECRET", secret(), "JSPIN_CONNECT_TIMEOUT", "2")));

        assertNotEquals(0, noRendezvous.awaitExit(Duration.ofSeconds(30)), noRendezvous.transcript());
        assertTrue(noRendezvous.err().contains("JSPIN_RENDEZVOUS"), "the message names JSPIN_RENDEZVOUS\n"
                + noRendezvous.transcript());
        // no waiting at all, only the JVM's start (generous: the machine may be busy with other builds)
        assertTrue(noRendezvous.elapsedSeconds() < 10, "quickly\n" + noRendezvous.transcript());

        for (SpawnedProcess p : List.of(lonelyRankZero, lonelyRankOne)) {
            assertNotEquals(0, p.awaitExit(Duration.ofSeconds(40)), p.transcript());
            assertTrue(p.err().contains("rendezvous") && p.err().contains("2000 ms"),
                    "the message says what failed, after the 2 s asked for\n" + p.transcript());
            // the default connect timeout is 30 s: this is 2 s plus the JVM's start
            assertTrue(p.elapsedSeconds() < 15, "within seconds, not after the default 30 s\n" + p.transcript());
        }
        for (SpawnedProcess p : List.of(noRendezvous, lonelyRankZero, lonelyRankOne)) {
            assertFalse(p.out().contains("halo2d: "), "no report, least of all as a world of one\n" + p.transcript());
        }
        System.out.printf("broken Slurm bootstraps failed after %.1f s (no JSPIN_RENDEZVOUS), %.1f s (rank 0 alone),"
                        + " %.1f s (rank 1 alone)%n", noRendezvous.elapsedSeconds(), lonelyRankZero.elapsedSeconds(),
                lonelyRankOne.elapsedSeconds());
    }
}
