package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Departures seen by a look at the peers' rings, reported once; a failed peer told at once. */
class DeparturesTest {
    @TempDir
    Path dir;
    private RingRig rig;
    private final RingRig.Told told = new RingRig.Told();

    @BeforeEach
    void rings() {
        rig = new RingRig(dir);
    }

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void aPeerThatClosedItsRingIsReportedOnceAfterALook() {
        Departures d = new Departures(0, rig.rings, rig.boxes[0], 0);
        assertFalse(d.departed(1));
        rig.rings[1].markClosed();
        assertFalse(d.look(), "no look due yet: the clock is read every 256 polls");
        assertEquals(0, d.untilLook(TimeUnit.SECONDS.toNanos(1)), "looks every 0 ns: one is due now");
        assertTrue(d.look());
        assertTrue(d.departed(1));
        assertTrue(d.pending());
        assertEquals(1, d.report(told));
        assertEquals(List.of("1: rank 1 left the job"), told.failed);
        assertFalse(d.pending());
        assertEquals(0, d.report(told), "reported once");
        assertFalse(d.departed(0), "this rank is never looked at");
    }

    @Test
    void theClockIsReadEvery256PollsAndLooksOnlyWhenDue() {
        Departures d = new Departures(0, rig.rings, rig.boxes[0], TimeUnit.HOURS.toNanos(1));
        rig.rings[1].markClosed();
        for (int i = 0; i < 1000; i++) {
            assertFalse(d.look(), "not due for an hour");
        }
        assertFalse(d.departed(1));
        long wait = d.untilLookKeepingDue(TimeUnit.MILLISECONDS.toNanos(5));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(5), wait, "the caller's wait, shorter than the next look");
    }

    @Test
    void aFailedPeerIsToldAtOnceAndOnlyOnce() {
        Departures d = new Departures(0, rig.rings, rig.boxes[0], 0);
        d.fail(told, 1, "rank 1 wrote nonsense");
        d.fail(told, 1, "rank 1 wrote more nonsense");
        assertEquals(List.of("1: rank 1 wrote nonsense"), told.failed);
        assertTrue(d.departed(1));
        assertFalse(d.pending(), "a failure is no departure to report later");
    }
}
