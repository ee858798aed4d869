package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** HPU choice and the packets waiting for one, stepped by hand. */
class HpuPoolTest {
    private static void assertTaken(HpuPool p, int slot, int hpu, long start) {
        p.take();
        assertEquals(slot, p.slot(), "slot");
        assertEquals(hpu, p.hpu(), "HPU of slot " + slot);
        assertEquals(start, p.start(), "start of slot " + slot);
    }

    @Test
    void theEarliestFreeIsTheLowestOfThoseFreeFirst() {
        HpuPool p = new HpuPool(3);
        assertEquals(0, p.earliestFree());
        p.busyUntil(0, 100);
        p.busyUntil(1, 50);
        p.busyUntil(2, 50);
        assertEquals(1, p.earliestFree());
        assertEquals(50, p.freeAt(2));
    }

    @Test
    void packetsForAnyHpuGoRoundRobinAmongTheFreeElseToTheEarliestFree() {
        HpuPool p = new HpuPool(3);
        p.busyUntil(0, 100);
        p.busyUntil(1, 50);
        p.busyUntil(2, 50);
        p.await(7, 200, -1, 10);
        assertEquals(200, p.nextStart());
        assertTaken(p, 7, 0, 200); // all free by 200: HPU 0, where the pointer starts
        assertEquals(200, p.ready());
        assertEquals(10, p.bytes());
        p.busyUntil(0, 300);
        p.await(8, 210, -1, 20);
        assertTaken(p, 8, 1, 210); // the pointer moved past 0
        p.busyUntil(1, 400);
        p.await(9, 220, -1, 0);
        assertTaken(p, 9, 2, 220);
        p.busyUntil(2, 250);
        p.await(10, 230, -1, 0); // none free at 230: the earliest free, HPU 2 at 250
        assertEquals(250, p.nextStart());
        assertTaken(p, 10, 2, 250);
        assertEquals(0, p.waiting());
        assertEquals(Long.MAX_VALUE, p.nextStart(), "none waits");
    }

    @Test
    void packetsForAnyHpuStartInArrivalOrder() {
        HpuPool p = new HpuPool(2);
        p.busyUntil(0, 1000);
        p.busyUntil(1, 1000);
        p.await(1, 300, -1, 0);
        p.await(2, 100, -1, 0); // ready earlier, but behind slot 1
        assertEquals(1000, p.nextStart());
        assertTaken(p, 1, 0, 1000);
        assertEquals(1, p.waiting(), "slot 2 still waits");
        p.busyUntil(0, 2000);
        assertTaken(p, 2, 1, 1000);
    }

    @Test
    void aBoundPacketWaitsForItsHpuAndMayOvertakeOthersBound() {
        HpuPool p = new HpuPool(2);
        p.busyUntil(0, 1000);
        p.await(2, 120, 0, 0); // HPU 0 is busy until 1000
        p.await(3, 130, 1, 0); // HPU 1 is free
        p.await(4, 140, -1, 0); // for any HPU: a bound packet behind it may not go first
        p.await(5, 150, 1, 0);
        assertEquals(130, p.nextStart());
        assertTaken(p, 3, 1, 130);
        p.busyUntil(1, 900);
        // slot 2 at 1000 on HPU 0, slot 4 at 900 on HPU 1 (the earliest free: none is free at 140)
        assertEquals(900, p.nextStart());
        assertTaken(p, 4, 1, 900);
        p.busyUntil(1, 950);
        assertTaken(p, 5, 1, 950); // slot 2 still waits for HPU 0
        assertTaken(p, 2, 0, 1000);
    }

    @Test
    void aBoundPacketLeavesTheRoundRobinPointerAlone() {
        HpuPool p = new HpuPool(3);
        p.await(1, 10, 0, 0);
        assertTaken(p, 1, 0, 10);
        p.busyUntil(0, 20);
        p.await(2, 30, -1, 0);
        assertTaken(p, 2, 0, 30); // the pointer is still at 0, not past the bound packet's HPU
        p.busyUntil(0, 40);
        p.await(3, 30, -1, 0);
        assertTaken(p, 3, 1, 30);
    }
}
