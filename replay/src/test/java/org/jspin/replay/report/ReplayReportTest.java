package org.jspin.replay.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.goal.GoalReader;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayReportTest {
    private static ReplayResult ping() throws IOException {
        String goal = "num_ranks 2\nrank 0 {\nl1: calc 7\nl2: send 10b to 1 tag 0\nl2 requires l1\n}\n"
                + "rank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        return new LogGopsReplay(GoalReader.read("p", new StringReader(goal)), LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000),
                PlainBytes.INSTANCE).run();
    }

    @Test
    void jsonHasOneObjectPerNicWithItsRanks() throws IOException {
        List<Map<String, Object>> json = new ReplayReport(List.of(ping())).json();
        assertEquals(1, json.size());
        assertEquals("loggops", json.get(0).get("nic"));
        assertEquals(145L, json.get(0).get("finish_ns"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ranks = (List<Map<String, Object>>) json.get(0).get("ranks");
        assertEquals(Map.of("rank", 0, "finish_ns", 26L, "compute_ns", 7L, "wait_ns", 0L, "cpu_pack_ns", 0L, "nic_ns", 0L),
                ranks.get(0));
        assertEquals(145L - 28, ranks.get(1).get("wait_ns"));
    }

    @Test
    void csvHasARowPerNicAndRankAndIsWrittenWhole(@TempDir Path dir) throws IOException {
        ReplayReport report = new ReplayReport(List.of(ping(), ping()));
        assertEquals(ReplayReport.CSV_HEADER + "\nloggops,0,26,7,0,0,0\nloggops,1,145,0,117,0,0\n"
                + "loggops,0,26,7,0,0,0\nloggops,1,145,0,117,0,0\n", report.csv());
        Path file = dir.resolve("out/project.csv");
        report.writeCsv(file);
        assertEquals(report.csv(), Files.readString(file));
        try (var files = Files.list(file.getParent())) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void textNamesTheLastRankAndListsSmallJobsRankByRank() throws IOException {
        String text = new ReplayReport(List.of(ping())).text();
        assertTrue(text.lines().anyMatch(l -> l.matches("loggops\\s+145\\s+1")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("\\s+1\\s+145\\s+0\\s+117\\s+0\\s+0")), text);
    }

    @Test
    void aMarkedScheduleGetsItsTimePerIterationInJsonAndText() {
        ScheduleBuilder b = new ScheduleBuilder("marked", 1);
        b.beginRank(0, 1);
        int prev = b.mark(0, null, 1);
        for (long ns : new long[] {100, 300, 200}) {
            int calc = b.calc(ns, 0, null, 1);
            b.requires(calc, prev, 1);
            prev = b.mark(0, null, 1);
            b.requires(prev, calc, 1);
        }
        ReplayResult r = new LogGopsReplay(b.build(), LogGopsParameters.defaults(), PlainBytes.INSTANCE).run();
        ReplayReport report = new ReplayReport(List.of(r));
        assertEquals(Map.of("intervals", 3, "median_ns", 200L, "mean_ns", 200.0, "compute_ns", 200L, "cpu_pack_ns", 0L,
                "nic_ns", 0L), report.json().getFirst().get("iteration"));
        assertTrue(report.text().lines().anyMatch(l -> l.matches("loggops\\s+3\\s+200\\s+200\\s+0\\s+0")),
                report.text());
    }

    @Test
    void anUnmarkedScheduleHasNoTimePerIteration() throws IOException {
        ReplayReport report = new ReplayReport(List.of(ping()));
        assertFalse(report.json().getFirst().containsKey("iteration"));
        assertFalse(report.text().contains("per iteration"), report.text());
    }
}
