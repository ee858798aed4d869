package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The client under the real thing: {@code mpiexec.hydra} (Debian's MPICH) starting JVM ranks of
 * {@link HydraRankMain}, once with the inherited {@code PMI_FD} and once with {@code -pmi-port}.
 */
class PmiHydraTest {
    private static final int RUN_SECONDS = 30;
    private static final Pattern RESULT =
            Pattern.compile("PMI-RESULT rank=(\\d+) size=(\\d+) transport=(\\w+) endpoints=(\\S+)");

    private record Run(int exitCode, String output) {
    }

    private static Path mpiexec() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "mpiexec.hydra");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail("mpiexec.hydra is not on the PATH; these tests start ranks under MPICH's Hydra."
                + " `./jspin test` installs Debian's mpich package (or: apt-get install mpich)");
    }

    private static Run hydra(List<String> hydraOptions, int ranks, String mode) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(mpiexec().toString());
        command.addAll(hydraOptions);
        command.addAll(List.of("-n", Integer.toString(ranks),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), HydraRankMain.class.getName(), mode));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("HYDRA_"));
        Process process = builder.start();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (InputStream in = process.getInputStream()) {
                byte[] buf = new byte[8192];
                for (int n; (n = in.read(buf)) > 0;) {
                    synchronized (output) {
                        output.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        });
        if (!process.waitFor(RUN_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            reader.join(2000);
            synchronized (output) {
                return fail("mpiexec.hydra did not finish within " + RUN_SECONDS + " s: " + command + "\n" + output);
            }
        }
        reader.join(5000);
        synchronized (output) {
            return new Run(process.exitValue(), output.toString());
        }
    }

    /** Checks that every rank printed all {@code ranks} endpoints in rank order, over {@code transport}. */
    private static void assertEveryRankSawEveryEndpoint(Run run, int ranks, String transport) {
        assertEquals(0, run.exitCode(), run.output());
        assertFalse(run.output().contains("restricted method"), "native access warning:\n" + run.output());
        List<String> expected = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            expected.add("127.0.0.1:" + (40000 + r));
        }
        Map<Integer, String> byRank = new TreeMap<>();
        Matcher m = RESULT.matcher(run.output());
        while (m.find()) {
            int rank = Integer.parseInt(m.group(1));
            assertEquals(ranks, Integer.parseInt(m.group(2)), run.output());
            assertEquals(transport, m.group(3), run.output());
            assertEquals(String.join(",", expected), m.group(4), "rank " + rank + ":\n" + run.output());
            assertEquals(null, byRank.put(rank, m.group(4)), "rank " + rank + " reported twice:\n" + run.output());
        }
        assertEquals(List.of(0, 1, 2).subList(0, ranks), List.copyOf(byRank.keySet()), run.output());
    }

    @Test
    void threeRanksExchangeEndpointsOverTheInheritedPmiFd() throws Exception {
        assertEveryRankSawEveryEndpoint(hydra(List.of(), 3, "exchange"), 3, "fd");
    }

    @Test
    void threeRanksExchangeEndpointsOverPmiPort() throws Exception {
        assertEveryRankSawEveryEndpoint(hydra(List.of("-pmi-port"), 3, "exchange"), 3, "port");
    }

    @Test
    void abortEndsTheWholeJobWithItsExitCode() throws Exception {
        Run run = hydra(List.of(), 2, "abort");
        // only the exit code: Hydra kills the job at once and may drop the aborting rank's last stderr line
        assertEquals(7, run.exitCode(), run.output());
    }
}
