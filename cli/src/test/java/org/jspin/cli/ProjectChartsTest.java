package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import org.jspin.nic.sim.experiment.Table;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.goal.GoalReader;
import org.junit.jupiter.api.Test;

class ProjectChartsTest {
    /** Rank 0 computes 7 ns and sends; rank 1 waits for the message and finishes last, at 145 ns. */
    private static ReplayResult ping() throws IOException {
        String goal = "num_ranks 2\nrank 0 {\nl1: calc 7\nl2: send 10b to 1 tag 0\nl2 requires l1\n}\n"
                + "rank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        return new LogGopsReplay(GoalReader.read("p", new StringReader(goal)),
                LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000), PlainBytes.INSTANCE).run();
    }

    @Test
    void finishHasEveryRankOfEveryNicInMicroseconds() throws IOException {
        Table t = ProjectCharts.finishTable(List.of(ping(), ping()));
        assertEquals(4, t.rows().size());
        assertEquals(List.of("loggops", 1, 0.145), t.rows().get(1));
    }

    @Test
    void breakdownIsTheSlowestRanksTimeNamedWithItsFinish() throws IOException {
        Table t = ProjectCharts.breakdownTable(List.of(ping()));
        assertEquals(1, t.rows().size());
        // rank 1 computes nothing and waits 145 - 28 ns: what is left is o and the per-byte charge
        assertEquals(List.of("loggops, rank 1: 0.1 µs", 0.0, 0.0, 0.0, 0.117), t.rows().getFirst());
    }
}
