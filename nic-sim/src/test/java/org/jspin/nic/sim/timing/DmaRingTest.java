package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Commands in flight per HPU, and the stall at {@code dma-outstanding} of them. */
class DmaRingTest {
    @Test
    void anHpuWithAllItsCommandsInFlightWaitsForTheOldest() {
        DmaRing ring = new DmaRing(2, 2);
        assertEquals(100, ring.issue(0, 100));
        ring.inFlight(0, 500);
        assertEquals(200, ring.issue(0, 200));
        ring.inFlight(0, 600);
        assertEquals(2, ring.inFlight(0));
        assertEquals(500, ring.issue(0, 300), "two in flight: waits for the one done at 500");
        ring.inFlight(0, 900);
        assertEquals(2, ring.inFlight(0), "600 and 900");
        assertEquals(300, ring.issue(1, 300), "the other HPU has its own commands");
        ring.inFlight(1, 400);
        assertEquals(650, ring.issue(0, 650), "600 is done by 650: one slot free");
        assertEquals(1, ring.inFlight(0));
        ring.inFlight(0, 1000);
        assertEquals(950, ring.issue(0, 950), "900 is done by 950: no wait");
        assertEquals(1, ring.inFlight(0));
        ring.inFlight(0, 1100);
        assertEquals(1000, ring.issue(0, 980), "1000 and 1100 in flight: waits for 1000");
        assertEquals(1, ring.inFlight(0));
        ring.inFlight(0, 1200);
        assertEquals(1200, ring.issue(0, 1200), "commands done at the issue time have left");
        assertEquals(0, ring.inFlight(0));
        assertEquals(1, ring.inFlight(1));
    }
}
