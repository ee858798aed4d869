package org.jspin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void theMiddleValueOrTheMeanOfTheMiddleTwoAndNaNForNone() {
        assertEquals(2.0, Stats.median(3, 1, 2));
        assertEquals(2.5, Stats.median(4, 1, 3, 2));
        assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Stats.median(new long[] {4, 1, 3, 2, 99}, 4), "only the first four");
        assertTrue(Double.isNaN(Stats.median(new ArrayList<>())));
        assertTrue(Double.isNaN(Stats.median(new long[] {7}, 0)));
        double[] xs = {3, 1, 2};
        Stats.median(xs);
        assertEquals(3, xs[0], "the caller's values stay in their order");
    }
}
