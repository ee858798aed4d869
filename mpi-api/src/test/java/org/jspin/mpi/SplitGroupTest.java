package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A split's group: the ranks of one color, ordered by key and then by parent rank, as world ranks. */
class SplitGroupTest {
    private static final int[] WORLD = {10, 11, 12, 13, 14};

    @Test
    void membersOfOneColorAreOrderedByKeyThenRank() {
        int[] colorKeys = {0, 5, 1, 0, 0, 2, 1, 9, 0, 2}; // color, key for parent ranks 0..4
        SplitGroup g = SplitGroup.of(colorKeys, 0, WORLD, 4);
        assertArrayEquals(new int[] {12, 14, 10}, g.worldRanks(), "key 2 (ranks 2, 4: by rank), then key 5");
        assertEquals(1, g.rank());
        SplitGroup other = SplitGroup.of(colorKeys, 1, WORLD, 3);
        assertArrayEquals(new int[] {11, 13}, other.worldRanks());
        assertEquals(1, other.rank());
    }

    @Test
    void negativeKeysComeFirst() {
        int[] colorKeys = {7, 0, 7, -1, 7, Integer.MIN_VALUE, 7, Integer.MAX_VALUE, 7, 0};
        SplitGroup g = SplitGroup.of(colorKeys, 7, WORLD, 0);
        assertArrayEquals(new int[] {12, 11, 10, 14, 13}, g.worldRanks());
        assertEquals(2, g.rank());
    }
}
