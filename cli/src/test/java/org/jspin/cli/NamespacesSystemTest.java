package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.cli.SystemTestPrograms.StreamUntilKilled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs across hosts, as on a cluster: two network namespaces joined by a veth pair
 * ({@link NetnsHosts}), each rank bound to its host's address ({@code JSPIN_BIND}), joined by the
 * bootstrap Slurm and Open MPI jobs use (rank 0 serves {@code JSPIN_RENDEZVOUS}; no launcher of ours
 * in between), on both backends; and a host that vanishes mid-transfer (its link taken down).
 */
class NamespacesSystemTest {
    private static final String BIT_IDENTICAL = "max abs error        0 (bit-identical to the serial run)";
    private static final int RENDEZVOUS_PORT = 7777;

    @TempDir
    Path dir;

    private NetnsHosts hosts;
    private final List<SpawnedProcess> started = new ArrayList<>();

    @BeforeEach
    void makeHosts() {
        hosts = new NetnsHosts();
    }

    @AfterEach
    void removeHosts() {
        started.forEach(SpawnedProcess::close);
        if (hosts != null) {
            hosts.close();
        }
    }

    private static String secret() {
        byte[] b = new byte[16];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The variables a launcher of kind {@code launcher} gives rank {@code rank} of {@code size} on {@code host}. */
    private Map<String, String> env(String launcher, int rank, int size, int host, String secret, String backend) {
        Map<String, String> env = new HashMap<>();
        if (launcher.equals("slurm")) {
            env.put("SLURM_PROCID", Integer.toString(rank));
            env.put("SLURM_NTASKS", Integer.toString(size));
            env.put("SLURM_JOB_ID", Long.toString(ProcessHandle.current().pid()));
        } else {
            env.put("OMPI_COMM_WORLD_RANK", Integer.toString(rank));
            env.put("OMPI_COMM_WORLD_SIZE", Integer.toString(size));
            env.put("OMPI_MCA_ess_base_jobid", Long.toString(ProcessHandle.current().pid()));
        }
        env.put("JSPIN_RENDEZVOUS", hosts.address(0) + ":" + RENDEZVOUS_PORT);
        env.put("JSPIN_SECRET", secret);
        env.put("JSPIN_BIND", hosts.address(host));
        env.put("JSPIN_BACKEND", backend);
        return env;
    }

    private SpawnedProcess start(int host, List<String> command, Map<String, String> env) {
        SpawnedProcess p = SpawnedProcess.start(hosts.on(host, command), env);
        started.add(p);
        return p;
    }

    /**
     * Four ranks of halo2d, two on each host, on the default fabric: the 2 x 2 grid's exchanges
     * between hosts cross the link, those between a host's own two ranks go through shared memory
     * (nothing but the rendezvous crosses a host's loopback), and the result is bit-identical to the
     * serial run.
     */
    @ParameterizedTest(name = "{0} variables, {1} backend")
    @CsvSource({"slurm, host", "ompi, sim"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void halo2dOnTwoHostsIsBitIdentical(String launcher, String backend) throws InterruptedException {
        String secret = secret();
        long before = hosts.receivedBytes(1);
        long[] loopbackBefore = {hosts.loopbackBytes(0), hosts.loopbackBytes(1)};
        SpawnedProcess[] ranks = new SpawnedProcess[4];
        for (int r = 0; r < 4; r++) {
            int host = r / 2;
            ranks[r] = start(host, SpawnedProcess.jspin("exec", "halo2d", "--size", "256", "--iterations", "40"),
                    env(launcher, r, 4, host, secret, backend));
        }
        for (int r = 0; r < 4; r++) {
            assertEquals(0, ranks[r].awaitExit(Duration.ofSeconds(100)), "rank " + r + "\n" + ranks[r].transcript());
        }
        assertTrue(ranks[0].out().contains(BIT_IDENTICAL), ranks[0].transcript());
        long crossed = hosts.receivedBytes(1) - before;
        // each of host 1's two ranks gets a 128-double halo row or column from host 0 per iteration
        assertTrue(crossed > 2L * 40 * 128 * 8, "host 1 received " + crossed + " bytes on its link");
        long[] loopback = new long[2];
        for (int h = 0; h < 2; h++) {
            loopback[h] = hosts.loopbackBytes(h) - loopbackBefore[h];
            // over TCP, each of a host's two ranks would send the other a 128-double halo per iteration
            assertTrue(loopback[h] < 40L * 128 * 8 / 2, "host " + h + "'s loopback carried " + loopback[h]
                    + " bytes: its two ranks talked over TCP, not shared memory\n" + ranks[2 * h].transcript());
        }
        System.out.printf("halo2d on two hosts (%s, %s): %.1f s, host 1 received %,d bytes on its link; loopback %,d and"
                + " %,d bytes%n", launcher, backend, ranks[0].elapsedSeconds(), crossed, loopback[0], loopback[1]);
    }

    /**
     * Rank 1 streams 4 MiB messages to rank 0 from the other host; once data flows, rank 1's host
     * drops off the network (its link goes down: no reset, no FIN, nothing). Rank 0's pending
     * receives fail with ERR_PROC_FAILED within the fabric's peer timeout, and both ranks end.
     */
    @ParameterizedTest(name = "{0} variables, {1} backend")
    @CsvSource({"slurm, host", "ompi, sim"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aHostThatVanishesMidTransferFailsItsPeersReceivesWithProcFailedInBoundedTime(String launcher, String backend)
            throws InterruptedException, IOException {
        String secret = secret();
        Path report = dir.resolve("rank0-report.txt");
        List<String> program = new ArrayList<>(SpawnedProcess.javaCommand());
        program.addAll(List.of(StreamUntilKilled.class.getName(), report.toString(), "exit"));
        SpawnedProcess rank0 = start(0, program, env(launcher, 0, 2, 0, secret, backend));
        SpawnedProcess rank1 = start(1, program, env(launcher, 1, 2, 1, secret, backend));
        rank0.awaitOut(l -> l.startsWith("flowing bytes="), Duration.ofSeconds(60), "saying that data flows to rank 0");
        long downAt = System.currentTimeMillis();
        hosts.linkDown(1);

        int code0 = rank0.awaitExit(Duration.ofSeconds(60));
        assertTrue(Files.exists(report), "rank 0 reported no failure\n" + rank0.transcript());
        String failed = Files.readString(report).strip();
        Matcher m = Pattern.compile("failed class=(\\w+) at=(\\d+) received=(\\d+) .*").matcher(failed);
        assertTrue(m.matches(), failed);
        assertEquals("ERR_PROC_FAILED", m.group(1), failed);
        long noticedAfter = Long.parseLong(m.group(2)) - downAt;
        assertTrue(noticedAfter >= 0 && noticedAfter < 30_000, "rank 0 noticed " + noticedAfter + " ms after the link"
                + " went down\n" + rank0.transcript());
        assertEquals(7, code0, rank0.transcript());
        int code1 = rank1.awaitExit(Duration.ofSeconds(60));
        assertNotEquals(0, code1, "rank 1's sends cannot have succeeded\n" + rank1.transcript());
        System.out.printf("link down (%s, %s): rank 0 saw ERR_PROC_FAILED after %d ms (%s); rank 1 exited %d %.1f s after its"
                + " start%n", launcher, backend, noticedAfter, m.group(0).replaceAll(" reason=.*", ""), code1, rank1.elapsedSeconds());
    }
}
