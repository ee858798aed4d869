package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class RosterTest {
    /** An unconnected socket whose output is kept, to see what the roster tells a rank. */
    private static final class Recorded extends Socket {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public OutputStream getOutputStream() {
            return bytes;
        }

        String written() {
            return bytes.toString(StandardCharsets.US_ASCII);
        }
    }

    private static Registration reg(int rank) {
        return new Registration(rank, "ep" + rank, new Recorded());
    }

    private static String written(Registration r) {
        return ((Recorded) r.socket()).written();
    }

    @Test
    void theLastRankCompletesTheExchangeAndEveryAdmittedRankIsToldSo() throws IOException {
        Roster roster = new Roster(2);
        Registration one = reg(1);
        Registration zero = reg(0);
        assertEquals(new Roster.Admission(null, null), roster.admit(one));
        assertEquals(Wire.VERSION + " " + Wire.ACCEPTED + "\n", written(one));
        assertEquals(List.of(0), roster.missing());
        assertNull(roster.endpoints());
        assertEquals("1/2, OPEN", roster.toString());
        Roster.Admission last = roster.admit(zero);
        assertNull(last.refusal());
        assertEquals(List.of(zero, one), last.everyone());
        assertEquals(List.of("ep0", "ep1"), roster.endpoints());
        assertEquals(List.of(), roster.missing());
        assertTrue(roster.handedOver(one));
        assertFalse(roster.release(one), "the exchange is over: the slot stays");
        assertEquals("2/2, COMPLETE", roster.toString());
        assertEquals("rank 1 arrived after the exchange completed", roster.admit(reg(1)).refusal());
        assertNull(roster.fail("late"), "a completed exchange cannot fail");
    }

    @Test
    void aTakenSlotIsRefusedUntilItsRankLetsGo() throws IOException {
        Roster roster = new Roster(3);
        Registration first = reg(2);
        roster.admit(first);
        Registration again = reg(2);
        String refusal = roster.admit(again).refusal();
        assertTrue(refusal.startsWith("rank 2 is already registered") && refusal.contains("endpoint 'ep2'"), refusal);
        assertEquals("", written(again), "a refused rank is not told ACCEPTED");
        assertFalse(roster.release(again), "not its slot");
        assertTrue(roster.release(first));
        assertEquals(List.of(0, 1, 2), roster.missing());
        assertNull(roster.admit(again).refusal());
        assertFalse(roster.handedOver(again), "still open");
    }

    @Test
    void failingTellsTheWaitingRanksOnce() throws IOException {
        Roster roster = new Roster(3);
        Registration zero = reg(0);
        roster.admit(zero);
        assertEquals(List.of(zero), roster.fail("timed out"));
        assertEquals("timed out", roster.failure());
        assertNull(roster.fail("again"));
        assertEquals("timed out", roster.failure());
        assertEquals(List.of(1, 2), roster.missing());
        assertTrue(roster.handedOver(zero));
        assertEquals("rank 1 arrived after the exchange failed: timed out", roster.admit(reg(1)).refusal());
        assertNull(roster.endpoints());
    }
}
