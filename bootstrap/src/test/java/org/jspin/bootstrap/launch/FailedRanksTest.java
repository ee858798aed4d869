package org.jspin.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class FailedRanksTest {
    @Test
    void theFirstFailureIsBlamedWhenNoneWasKilled() {
        FailedRanks f = new FailedRanks();
        f.add(2, 1);
        f.add(0, 3);
        assertEquals(2, f.causeRank());
        assertEquals(1, f.causeCode());
        assertEquals(List.of(2, 0), f.ranks());
        assertEquals("jspin run: rank 2 exited with code 1; rank 0 exited with code 3", f.report());
    }

    @Test
    void aRankKilledByASignalIsBlamedBeforePeersThatExitedFirst() {
        FailedRanks f = new FailedRanks();
        f.add(0, 1);
        f.add(3, 137);
        f.add(1, 143);
        assertEquals(3, f.causeRank());
        assertEquals(137, f.causeCode());
        assertEquals("jspin run: rank 3 was killed by signal 9 (exit code 137); rank 0 exited with code 1;"
                + " rank 1 exited with code 143", f.report());
    }

    @Test
    void exitCode128IsAnExitNotASignal() {
        FailedRanks f = new FailedRanks();
        f.add(5, 128);
        assertEquals("jspin run: rank 5 exited with code 128", f.report());
    }
}
