package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The buffer's releases: earliest first, and equal times in PriorityQueue's order. */
class ReleaseQueueTest {
    @Test
    void releasesLeaveEarliestFirst() {
        ReleaseQueue q = new ReleaseQueue();
        assertTrue(q.isEmpty());
        q.add(700, 1);
        q.add(200, 2);
        q.add(500, 3);
        q.add(100, 4);
        long[] times = new long[4];
        long[] bytes = new long[4];
        for (int i = 0; i < 4; i++) {
            times[i] = q.firstTime();
            bytes[i] = q.firstBytes();
            q.removeFirst();
        }
        assertTrue(q.isEmpty());
        assertEquals("[100, 200, 500, 700]", Arrays.toString(times));
        assertEquals("[4, 2, 3, 1]", Arrays.toString(bytes));
    }

    @Test
    void equalTimesLeaveInTheOrderThePriorityQueueLetThemGo() {
        // the model's releases were a PriorityQueue<long[]> ordered by time alone: ties must come out as they did
        Random random = new Random(45);
        for (int run = 0; run < 200; run++) {
            ReleaseQueue q = new ReleaseQueue();
            PriorityQueue<long[]> reference = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
            long next = 0;
            for (int step = 0; step < 300; step++) {
                if (reference.isEmpty() || random.nextInt(3) > 0) {
                    long time = random.nextInt(6); // few distinct times: many ties
                    long held = next++;
                    q.add(time, held);
                    reference.add(new long[] {time, held});
                } else {
                    long[] r = reference.poll();
                    assertEquals(r[0], q.firstTime(), "run " + run + " step " + step);
                    assertEquals(r[1], q.firstBytes(), "run " + run + " step " + step + ": the tie left out of order");
                    q.removeFirst();
                }
                assertEquals(reference.size(), q.size());
            }
            while (!reference.isEmpty()) {
                long[] r = reference.poll();
                assertEquals(r[1], q.firstBytes(), "run " + run + " draining");
                q.removeFirst();
            }
            assertTrue(q.isEmpty(), "both empty together");
        }
    }
}
