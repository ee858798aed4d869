package org.jspin.replay.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class EventQueueTest {
    @Test
    void popsByTimeThenBySequence() {
        EventQueue q = new EventQueue();
        q.push(5, 2, 20);
        q.push(3, 9, 90);
        q.push(5, 1, 10);
        q.push(3, 4, 40);
        long[] expected = {40, 90, 10, 20};
        for (long p : expected) {
            q.pop();
            assertEquals(p, q.payload());
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void manyRandomEventsComeOutSorted() {
        EventQueue q = new EventQueue();
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) q.push(random.nextInt(100), i, i);
        long lastTime = -1;
        long lastSeq = -1;
        while (!q.isEmpty()) {
            q.pop();
            assertTrue(q.time() > lastTime || (q.time() == lastTime && q.sequence() > lastSeq));
            assertEquals(q.sequence(), q.payload());
            lastTime = q.time();
            lastSeq = q.sequence();
        }
    }
}
