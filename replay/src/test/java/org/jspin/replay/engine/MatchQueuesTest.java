package org.jspin.replay.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.replay.schedule.Schedule;
import org.junit.jupiter.api.Test;

class MatchQueuesTest {
    @Test
    void takesTheOldestMatchingEntryOfTheRank() {
        MatchQueues q = new MatchQueues(2);
        q.add(1, 0, 5, 100, 7);
        q.add(1, 0, 6, 101, 8);
        q.add(1, 0, 5, 102, 9);
        q.add(0, 0, 5, 103, 1);
        int slot = q.take(1, 0, 5);
        assertEquals(100, q.op(slot));
        assertEquals(7, q.time(slot));
        assertEquals(102, q.op(q.take(1, 0, 5)));
        assertEquals(-1, q.take(1, 0, 5));
        assertArrayEquals(new int[] {101}, q.left(1));
    }

    @Test
    void anySourceOrTagMatchesOnEitherSide() {
        MatchQueues q = new MatchQueues(1);
        q.add(0, Schedule.ANY, 3, 1, 0);
        q.add(0, 2, Schedule.ANY, 2, 0);
        assertEquals(-1, q.take(0, 4, 4));
        assertEquals(1, q.op(q.take(0, 4, 3)));
        assertEquals(2, q.op(q.take(0, Schedule.ANY, 9)));
        assertTrue(q.isEmpty());
    }

    @Test
    void slotsAreReusedAndTheTailFollowsRemovals() {
        MatchQueues q = new MatchQueues(1);
        for (int i = 0; i < 200; i++) q.add(0, i, 0, i, 0);
        for (int i = 199; i >= 0; i--) assertEquals(i, q.op(q.take(0, i, 0)));
        q.add(0, 1, 1, 42, 0);
        q.add(0, 2, 2, 43, 0);
        assertArrayEquals(new int[] {42, 43}, q.left(0));
    }
}
