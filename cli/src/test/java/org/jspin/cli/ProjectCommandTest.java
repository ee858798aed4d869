package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

class ProjectCommandTest {
    private static final String PING = "num_ranks 2\nrank 0 {\nl1: send 10b to 1 tag 0\n}\nrank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
    private static final String SMALL = "L=100,o=10,g=20,G=2,O=1,S=1000";
    private static final String VECTOR = "{\"vector\": {\"count\": 256, \"blocklength\": 1, \"stride\": 2, \"of\": \"double\"}}";

    private static Path file(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void jsonGivesEachNicsFinishRankByRank(@TempDir Path dir) throws IOException {
        Path goal = file(dir, "ping.goal", PING);
        InProcess.Run run = InProcess.run("project", goal.toString(), "--nic", "plain", "--loggops", SMALL, "--json");
        assertEquals(0, run.status(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals(1, json.size());
        assertEquals("plain", json.get(0).get("nic").asText());
        assertEquals(138, json.get(0).get("finish_ns").asLong());
        assertEquals(19, json.get(0).get("ranks").get(0).get("finish_ns").asLong());
        assertEquals(110, json.get(0).get("ranks").get(1).get("wait_ns").asLong());
    }

    @Test
    void theDefaultNicIsTheHostsCostModelAndPlainBytesCostItNothing(@TempDir Path dir) throws IOException {
        // a GOAL file has no datatypes: on the host's cost model it replays as LogGOPS's plain bytes
        Path goal = file(dir, "ping.goal", PING);
        InProcess.Run run = InProcess.run("project", goal.toString(), "--loggops", SMALL, "--out", dir.resolve("o").toString());
        assertEquals(0, run.status(), run.err());
        assertFalse(run.err().contains("no cost model"), "host's cost model is installed: " + run.err());
        assertFalse(run.out().contains("host:plain"), run.out());
        assertTrue(run.out().contains("(simulated)"), run.out());
        assertTrue(Files.readString(dir.resolve("o/project.csv")).contains("host,1,138,"));
    }

    @Test
    void goalWritesTheScheduleAndExits(@TempDir Path dir) throws IOException {
        Path goal = file(dir, "ping.goal", PING);
        Path written = dir.resolve("again.goal");
        InProcess.Run run = InProcess.run("project", goal.toString(), "--goal", written.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("wrote " + written), run.out());
        assertTrue(Files.readString(written).contains("l0: send 10b to 1 tag 0"));
    }

    @Test
    void aMalformedScheduleIsAnErrorNamingFileAndLineAndWritesNothing(@TempDir Path dir) throws IOException {
        Path goal = file(dir, "bad.goal", "num_ranks 1\nrank 0 {\nl1: put 8b to 0\n}\n");
        Path out = dir.resolve("o");
        InProcess.Run run = InProcess.run("project", goal.toString(), "--out", out.toString(), "--goal",
                dir.resolve("x.goal").toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains(goal + ":3: unknown operation 'put'"), run.err());
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(dir.resolve("x.goal")));
        InProcess.Run deadlock = InProcess.run("project", file(dir, "d.goal",
                "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\n}\nrank 1 {\n}\n").toString(), "--nic", "plain");
        assertEquals(2, deadlock.status());
        assertTrue(deadlock.err().contains("deadlock") && deadlock.err().contains("rank 0's recv l1"), deadlock.err());
        assertEquals(2, InProcess.run("project", dir.resolve("missing").toString()).status());
        assertEquals(2, InProcess.run("project", goal.toString(), "--loggops", "Q=1").status());
    }
    @Test
    void aTraceDirectoryReplaysAndBecomesGoal(@TempDir Path dir) throws IOException {
        Path trace = Files.createDirectory(dir.resolve("trace"));
        file(trace, "job.json", "{\"format\": \"jspin-trace\", \"version\": 1, \"ranks\": 2}");
        file(trace, "rank-0.trace", "jspin-trace 1 rank 0 of 2\ntype 1 \"double\"\ncalc 1 400\n"
                + "send 2 to 1 tag 5 ctx 0 bytes 16 type 1 count 2\n");
        file(trace, "rank-1.trace", "jspin-trace 1 rank 1 of 2\ntype 1 \"double\"\n"
                + "recv 1 from -1 tag -1 ctx 0 bytes 16 type 1 count 2 matched 0 5\n");
        InProcess.Run run = InProcess.run("project", trace.toString(), "--nic", "plain", "--loggops", SMALL, "--json");
        assertEquals(0, run.status(), run.err());
        // the send leaves after the 400 ns calc: rank 1 receives at 400 + 110 and pays o + 15 * G = 40
        assertEquals(550, new ObjectMapper().readTree(run.out()).get(0).get("finish_ns").asLong());
        Path goal = dir.resolve("t.goal");
        assertEquals(0, InProcess.run("project", trace.toString(), "--goal", goal.toString()).status());
        assertTrue(Files.readString(goal).contains("l0: recv 16b from 0 tag 0"), Files.readString(goal));
    }

    @Test
    void theTextTableReachesAnOutputThatOnlyFlushesOnNewLines(@TempDir Path dir) throws IOException {
        // picocli's standard output is such a writer: what print leaves in it, System.exit drops
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        assertEquals(0, cl.execute("project", file(dir, "ping.goal", PING).toString(), "--nic", "plain", "--loggops",
                SMALL));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.lines().anyMatch(l -> l.matches("plain\\s+138\\s+1")), out);
    }

    @Test
    void outWritesTheCsvAndTwoChartsOfEveryNic(@TempDir Path dir) throws IOException {
        // a strided vector each way, so that host packs on the CPU and sim runs handlers on the NIC
        Path trace = Files.createDirectory(dir.resolve("trace"));
        file(trace, "job.json", "{\"format\": \"jspin-trace\", \"version\": 1, \"ranks\": 2}");
        file(trace, "rank-0.trace", "jspin-trace 1 rank 0 of 2\ntype 1 %s\ncalc 1 4000\n".formatted(VECTOR)
                + "send 2 to 1 tag 5 ctx 0 bytes 2048 type 1 count 1\n"
                + "recv 3 from 1 tag 6 ctx 0 bytes 2048 type 1 count 1 matched 1 6\n");
        file(trace, "rank-1.trace", "jspin-trace 1 rank 1 of 2\ntype 1 %s\ncalc 1 2000\n".formatted(VECTOR)
                + "recv 2 from 0 tag 5 ctx 0 bytes 2048 type 1 count 1 matched 0 5\n"
                + "send 3 to 0 tag 6 ctx 0 bytes 2048 type 1 count 1\n");
        Path out = dir.resolve("o");
        InProcess.Run run = InProcess.run("project", trace.toString(), "--nic", "host,sim", "--out", out.toString());
        assertEquals(0, run.status(), run.err());
        String csv = Files.readString(out.resolve("project.csv"));
        assertTrue(csv.contains("\nhost,1,") && csv.contains("\nsim:"), csv);
        for (String name : List.of("project-finish.png", "project-breakdown.png")) {
            Path png = out.resolve(name);
            assertTrue(Files.size(png) > 1000, name + " has " + Files.size(png) + " bytes");
            BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(1000, image.getWidth(), name);
            assertEquals(620, image.getHeight(), name);
        }
        try (var files = Files.list(out)) {
            assertEquals(3, files.count(), "no temporary file left beside the results");
        }
    }
}
