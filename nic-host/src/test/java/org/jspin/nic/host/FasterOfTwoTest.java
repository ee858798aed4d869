package org.jspin.nic.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The chooser tries both ways, keeps to the faster, explores the other, and follows a change. */
class FasterOfTwoTest {
    /** Runs {@code n} pieces of 1000 bytes whose cost per way is {@code nanos}; @return pieces done each way. */
    private static int[] run(FasterOfTwo c, int n, long[] nanos) {
        int[] done = new int[2];
        for (int i = 0; i < n; i++) {
            int way = c.choose();
            done[way]++;
            c.record(way, nanos[way], 1000);
        }
        return done;
    }

    @Test
    void triesBothThenKeepsToTheFasterExploringTheOther() {
        FasterOfTwo c = new FasterOfTwo();
        assertEquals(0, c.choose(), "way 0 first");
        c.record(0, 2000, 1000);
        assertEquals(1, c.choose(), "then way 1, not yet measured");
        c.record(1, 1000, 1000);
        int[] done = run(c, 160, new long[] {2000, 1000});
        assertEquals(10, done[0], "one piece in " + FasterOfTwo.EXPLORE_EVERY + " tries the slower way");
        assertEquals(150, done[1]);
    }

    @Test
    void followsTheMachineWhenTheOtherWayBecomesFaster() {
        FasterOfTwo c = new FasterOfTwo();
        run(c, 100, new long[] {1000, 2000}); // way 0 faster
        assertTrue(c.nanosPerByte(0) < c.nanosPerByte(1));
        // the state changes: way 0 now takes three times as long; the next exploration of way 1
        // (within 16 pieces) and a few pieces of smoothing bring the choice over
        run(c, 40, new long[] {3000, 2000});
        int[] after = run(c, 64, new long[] {3000, 2000});
        assertEquals(4, after[0], "way 0 only when exploring: " + after[0]);
        assertEquals(60, after[1]);
    }

    @Test
    void ignoresPiecesThatSayNothing() {
        FasterOfTwo c = new FasterOfTwo();
        c.record(0, 0, 1000);
        c.record(0, 500, 0);
        assertEquals(0, c.nanosPerByte(0));
        c.record(0, 500, 1000);
        assertEquals(0.5, c.nanosPerByte(0));
        c.record(0, 1500, 1000);
        assertEquals(0.5 + FasterOfTwo.WEIGHT * (1.5 - 0.5), c.nanosPerByte(0), 1e-12);
    }
}
