package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --trace DIR} for real: rank JVMs under {@code jspin run}, and thread ranks under {@code jspin exec}. */
class TraceSystemTest {
    @TempDir
    Path dir;

    /** Starts {@code jspin args...}; the caller closes it (which kills whatever is left of it). */
    private static SpawnedProcess jspin(String... args) {
        return SpawnedProcess.start(SpawnedProcess.jspin(args), Map.of());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoRankProcessesOfHalo2dWriteJobJsonAndTheirFilesWithoutTheWarmUp() throws Exception {
        Path trace = dir.resolve("halo");
        try (SpawnedProcess run = jspin("run", "-n", "2", "--timeout", "100", "--trace", trace.toString(), "halo2d",
                "--size", "64", "--iterations", "3")) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(110)), run.transcript());
        }
        assertEquals("{\"format\":\"jspin-trace\",\"version\":1,\"ranks\":2,\"program\":\"halo2d\","
                + "\"args\":[\"--size\",\"64\",\"--iterations\",\"3\"],\"backend\":\"host\",\"fabric\":\"shm\","
                + "\"threads\":false,\"clock\":\"thread-cpu-ns\"}", Files.readString(trace.resolve("job.json")).strip());
        for (int r = 0; r < 2; r++) {
            List<String> lines = Files.readAllLines(trace.resolve("rank-" + r + ".trace"));
            assertEquals("jspin-trace 1 rank " + r + " of 2", lines.getFirst());
            int peer = 1 - r;
            // halo2d's messages go on its Cartesian communicator's context, the world's collectives on 1
            long userSends = lines.stream().filter(l -> l.matches("i?send \\d+ to " + peer + " .* ctx [2-9] .*")).count();
            long userRecvs = lines.stream().filter(l -> l.matches("i?recv \\d+ from " + peer + " .* ctx [2-9] .*")).count();
            assertTrue(userSends >= 3 && userSends == userRecvs, "rank " + r + ": " + userSends + " sends, "
                    + userRecvs + " receives of the program's\n" + String.join("\n", lines.subList(0, Math.min(40, lines.size()))));
            // the warm-up's messages to itself, on the world's context, are not the program's
            String toSelf = " to " + r + " tag ";
            String fromSelf = " from " + r + " tag ";
            assertFalse(lines.stream().anyMatch(l -> (l.contains(toSelf) || l.contains(fromSelf)) && l.contains(" ctx 0 ")),
                    String.join("\n", lines));
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("calc ")), "rank " + r + " computed");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void threadRanksUnderExecTraceTooOnTheSimulatedNic() throws Exception {
        Path trace = dir.resolve("threads");
        try (SpawnedProcess run = jspin("exec", "--trace", trace.toString(), "halo2d", "--ranks", "4", "--size", "48",
                "--iterations", "2", "--backend", "sim")) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(110)), run.transcript());
        }
        String job = Files.readString(trace.resolve("job.json"));
        assertTrue(job.contains("\"ranks\":4") && job.contains("\"threads\":true") && job.contains("\"program\":\"halo2d\"")
                && job.contains("\"backend\":\"sim\""), job);
        for (int r = 0; r < 4; r++) {
            List<String> lines = Files.readAllLines(trace.resolve("rank-" + r + ".trace"));
            assertEquals("jspin-trace 1 rank " + r + " of 4", lines.getFirst());
            // on a 2 x 2 grid halo2d's columns go as vector types, whatever the NIC
            assertTrue(lines.stream().anyMatch(l -> l.matches("type \\d+ \\{\"vector\".*")), String.join("\n", lines));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTraceDirectoryThatCannotBeCreatedFailsBeforeAnyRankStarts() throws Exception {
        Path blocked = Files.writeString(dir.resolve("file"), "x").resolve("trace");
        try (SpawnedProcess run = jspin("run", "-n", "2", "--trace", blocked.toString(), "halo2d", "--size", "64")) {
            assertNotEquals(0, run.awaitExit(Duration.ofSeconds(50)), run.transcript());
            assertTrue(run.transcript().contains(blocked.toString()), run.transcript());
            assertFalse(run.transcript().contains("[0]"), "no rank started: " + run.transcript());
        }
        assertFalse(Files.exists(blocked));
    }
}
