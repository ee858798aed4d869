package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
                        29.5, 33.75));
        Path file = dir.resolve("results.json");
        PingPongRank.write(file, written);
        assertEquals(written, PingPongRank.read(file));
        assertEquals(0, PingPongRank.read(file).get(0).packGbps(), "a contiguous case packed nothing");
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
        assertEquals(List.of("29.50", "33.75"), List.of(lines[1].trim().split(" +")).subList(7, 9));
    }
}
