package org.jspin.replay.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.schedule.Schedule;
import org.junit.jupiter.api.Test;

class ScheduleGeneratorTest {
    private static final LogGopsParameters P = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000);

    private static ReplayResult replay(Schedule s) {
        return new LogGopsReplay(s, P, PlainBytes.INSTANCE).run();
    }

    @Test
    void everyShapeReplaysToTheEndWithEagerAndRendezvousMessages() {
        for (long bytes : new long[] {8, 4096}) {
            assertTrue(replay(ScheduleGenerator.ring(5, 3, bytes)).finishNs() > 0);
            assertTrue(replay(ScheduleGenerator.tree(11, bytes)).finishNs() > 0);
            assertTrue(replay(ScheduleGenerator.pairwise(8, bytes, 100)).finishNs() > 0);
            assertTrue(replay(ScheduleGenerator.halo(3, 2, 2, bytes, 1000)).finishNs() > 0);
            assertTrue(replay(ScheduleGenerator.fanIn(4, 2, bytes)).finishNs() > 0);
        }
    }

    @Test
    void shapesHaveTheOperationsTheirPatternNames() {
        assertEquals(5 * 3 * 2, ScheduleGenerator.ring(5, 3, 8).operations());
        // a broadcast to 11 ranks: 10 sends and 10 receives
        assertEquals(20, ScheduleGenerator.tree(11, 8).operations());
        // per rank: a calc, then per round a send, a receive and a wait
        assertEquals(8 * (1 + 3 * 3), ScheduleGenerator.pairwise(8, 8, 100).operations());
        // per rank and iteration: a calc, four receives, four sends, a wait
        assertEquals(6 * 2 * 10, ScheduleGenerator.halo(3, 2, 2, 8, 1000).operations());
        assertEquals(3 * 2 * 2 + 3, ScheduleGenerator.fanIn(4, 2, 8).operations());
    }

    @Test
    void unevenComputeMakesRanksFinishApart() {
        ReplayResult r = replay(ScheduleGenerator.pairwise(4, 8, 10_000));
        // the last exchange waits for the slowest partner: ranks 2 and 3 computed 30 and 10 us
        assertTrue(r.finishNs(0) >= 30_000);
        assertEquals(r.finishNs(0), r.finishNs(1), 1000);
    }
}
