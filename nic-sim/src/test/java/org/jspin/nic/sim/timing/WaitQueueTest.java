package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Packets waiting for an HPU: first in, first out, across the ring's wrap and growth. */
class WaitQueueTest {
    private static void add(WaitQueue q, int slot) {
        q.add(slot, 1000L + slot, slot % 3 - 1, 10L * slot);
    }

    private static void assertSlots(WaitQueue q, int... slots) {
        assertEquals(slots.length, q.size());
        for (int i = 0; i < slots.length; i++) {
            int s = slots[i];
            assertEquals(s, q.slot(i), "place " + i);
            assertEquals(1000L + s, q.ready(i));
            assertEquals(s % 3 - 1, q.hpu(i));
            assertEquals(10L * s, q.bytes(i));
        }
    }

    @Test
    void packetsWaitInArrivalOrder() {
        WaitQueue q = new WaitQueue();
        add(q, 4);
        add(q, 9);
        add(q, 2);
        assertSlots(q, 4, 9, 2);
        q.remove(0);
        assertSlots(q, 9, 2);
    }

    @Test
    void removingOneInTheMiddleKeepsTheOthersInOrder() {
        WaitQueue q = new WaitQueue();
        for (int s = 0; s < 6; s++) {
            add(q, s);
        }
        q.remove(3);
        assertSlots(q, 0, 1, 2, 4, 5);
        q.remove(4);
        assertSlots(q, 0, 1, 2, 4);
    }

    @Test
    void theRingGrowsWhileWrappedWithoutLosingItsOrder() {
        WaitQueue q = new WaitQueue();
        for (int s = 0; s < 16; s++) {
            add(q, s);
        }
        for (int k = 0; k < 5; k++) {
            q.remove(0);
        }
        for (int s = 16; s < 21; s++) {
            add(q, s); // these wrap round to the front of the 16-place ring
        }
        add(q, 21); // full and wrapped: grows
        add(q, 22);
        assertSlots(q, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22);
        q.remove(10);
        assertSlots(q, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22);
    }
}
