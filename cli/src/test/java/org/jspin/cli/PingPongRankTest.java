package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspin.bench.pingpong.CoreSplit;
import org.jspin.bench.pingpong.PingPongResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rank 0 hands the launching command its results in a file: every field comes back as written. */
class PingPongRankTest {
    @Test
    void resultsSurviveTheFile(@TempDir Path dir) throws IOException {
        List<PingPongResult> written = List.of(
                new PingPongResult("latency_8B", 8, 20000, 4.1, 4.5, 5.2, 0.002),
                new PingPongResult("bw_4MiB_vector_64B_stride_128B", 4 << 20, 200, 870.5, 990.25, 1500.0, 4.82,
                        29.5, 33.75, new CoreSplit(0.75, 850.25, 1400.5, 101.5, 452.25)));
        Path file = dir.resolve("results.json");
        PingPongRank.write(file, written);
        assertEquals(written, PingPongRank.read(file));
        assertEquals(0, PingPongRank.read(file).get(0).packGbps(), "a contiguous case packed nothing");
    }

    @Test
    void resultsWrittenBeforeTheProbesReadAsUnprobed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("old.json");
        Files.writeString(file, "[{\"name\":\"bw_1MiB\",\"bytes\":1048576,\"iterations\":600,\"p50Micros\":150.0,"
                + "\"p90Micros\":160.0,\"p99Micros\":170.0,\"gbps\":6.99,\"packGbps\":0,\"unpackGbps\":0}]");
        PingPongResult r = PingPongRank.read(file).get(0);
        assertEquals(CoreSplit.NONE, r.cores());
        assertEquals(150.0, r.p50Micros());
    }

    @Test
    void theTableShowsEachStateAndTheProbesBehindIt() {
        StringWriter s = new StringWriter();
        PingPongOutput.results(new PrintWriter(s), List.of(
                new PingPongResult("bw_1MiB", 1 << 20, 600, 150, 160, 170, 6.99, 0, 0,
                        new CoreSplit(0.25, 140.5, 300.25, 100, 450)),
                new PingPongResult("bw_4MiB", 4 << 20, 200, 900, 950, 990, 4.66, 0, 0,
                        new CoreSplit(1, 900.5, 0, 120, 0))), false, "host", "netty");
        String[] lines = s.toString().split("\n");
        assertEquals(List.of("25", "140.50", "300.25"), List.of(lines[0].trim().split(" +")).subList(9, 12));
        assertEquals(List.of("100", "900.50", "-"), List.of(lines[1].trim().split(" +")).subList(9, 12));
        assertTrue(lines[2].contains("near 120 ns, far 450 ns"), lines[2]);
    }

    @Test
    void theTableShowsADashWhereNothingWasPacked() {
        StringWriter s = new StringWriter();
        PingPongOutput.results(new PrintWriter(s), List.of(
                new PingPongResult("latency_8B", 8, 20000, 4.1, 4.5, 5.2, 0.002),
                new PingPongResult("bw_4MiB_vector_64B_stride_128B", 4 << 20, 200, 870.5, 990.25, 1500.0, 4.82,
                        29.5, 33.75)), false, "host", "netty");
        String[] lines = s.toString().split("\n");
        assertEquals(List.of("-", "-"), List.of(lines[0].trim().split(" +")).subList(7, 9));
        assertEquals(List.of("-", "-", "-"), List.of(lines[0].trim().split(" +")).subList(9, 12), "not probed");
        assertEquals(2, lines.length, "no line about probes that were not taken");
        assertEquals(List.of("29.50", "33.75"), List.of(lines[1].trim().split(" +")).subList(7, 9));
    }
}
