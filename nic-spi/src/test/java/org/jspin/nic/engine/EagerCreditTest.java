package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Eager credit alone: spent per peer, given back in batches of half, owed in the order debts grew. */
class EagerCreditTest {
    @Test
    void creditIsSpentPerPeerAndComesBackWhenReturned() {
        EagerCredit c = new EagerCredit(3, 100);
        assertTrue(c.canSpend(1, 100));
        c.spend(1, 60);
        assertTrue(c.canSpend(1, 40));
        assertFalse(c.canSpend(1, 41), "beyond what is left: rendezvous");
        assertTrue(c.canSpend(2, 100), "each peer has its own");
        c.returned(1, 60);
        assertTrue(c.canSpend(1, 100));
        c.returned(1, -5);
        assertFalse(c.canSpend(1, 101), "nothing but positive credit comes back");
    }

    @Test
    void aRankOutsideTheJobMayBeTriedAndSpendsNothing() {
        EagerCredit c = new EagerCredit(2, 100);
        assertTrue(c.canSpend(5, 1_000), "the fabric refuses it, and the send fails there");
        c.spend(5, 1_000);
        c.spend(-1, 1_000);
        c.taken(7, 1_000);
        assertFalse(c.hasDue());
    }

    @Test
    void creditGoesBackOnceTheDebtPassesHalfInTheOrderDebtsGrew() {
        EagerCredit c = new EagerCredit(3, 100);
        c.taken(2, 30);
        c.taken(1, 49);
        assertFalse(c.hasDue(), "both below half");
        c.taken(1, 1);
        c.taken(2, 25);
        c.taken(2, 25);
        assertTrue(c.hasDue());
        assertEquals(1, c.nextDue(), "rank 1 passed half first");
        assertEquals(2, c.nextDue(), "rank 2 is due once, however far past half");
        assertFalse(c.hasDue());
        assertEquals(50, c.settle(1));
        assertEquals(80, c.settle(2));
        assertEquals(0, c.settle(2), "settled: nothing owed");
        c.taken(2, 0);
        assertFalse(c.hasDue());
        c.taken(2, 50);
        assertEquals(2, c.nextDue(), "due again once the new debt passes half");
    }
}
