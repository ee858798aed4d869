package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.jspin.nic.match.Matcher;
import org.junit.jupiter.api.Test;

/** Waiting probes alone: answered in order by a matching arrival, a matched probe taking it from the rest; failed with their peer. */
class WaitingProbesTest {
    private static final int CONTEXT = 3;
    private static final int ANY = -1;

    private static Unexpected message(int source, int tag, long length) {
        return new Unexpected(PacketKind.EAGER, source, MatchBits.select(CONTEXT, source, tag), length, 1, 0, -1, null, 0,
                0, null);
    }

    private static void waitFor(WaitingProbes probes, int source, int tag, boolean take, Req listener) {
        probes.add(source, MatchBits.select(CONTEXT, source, tag), MatchBits.ignore(source, tag), take, listener);
    }

    @Test
    void anArrivalAnswersTheProbesItMatchesInOrderAndAMatchedProbeTakesIt() {
        WaitingProbes probes = new WaitingProbes();
        Matcher<Object, Unexpected> unexpected = new Matcher<>();
        Req peek = new Req();
        Req other = new Req();
        Req take = new Req();
        Req after = new Req();
        waitFor(probes, 1, 5, false, peek);
        waitFor(probes, 2, 5, false, other);
        waitFor(probes, ANY, ANY, true, take);
        waitFor(probes, 1, ANY, false, after);

        Unexpected u = message(1, 5, 40);
        unexpected.addUnexpected(u.bits, u);
        probes.arrived(u, unexpected);
        assertEquals(40, peek.event().messageBytes());
        assertNull(peek.matched.getFirst(), "a plain probe leaves the message");
        assertSame(u, take.matched.getFirst(), "the matched probe took it");
        assertNull(unexpected.probe(u.bits, 0), "and no later receive or probe sees it");
        assertFalse(other.done(), "another source: still waiting");
        assertFalse(after.done(), "after the matched probe: still waiting");
        assertFalse(probes.isEmpty());
    }

    @Test
    void probesOnADepartedRankFailAndThoseOnAnyRankOnlyOnceNobodyIsLeft() {
        WaitingProbes probes = new WaitingProbes();
        Req onOne = new Req();
        Req onTwo = new Req();
        Req onAny = new Req();
        waitFor(probes, 1, 5, false, onOne);
        waitFor(probes, 2, 5, false, onTwo);
        waitFor(probes, ANY, 5, false, onAny);
        MpiException gone = new MpiException(ErrorClass.ERR_PROC_FAILED, "rank 1 has failed or left the job");
        probes.fail(1, false, gone);
        assertEquals(ErrorClass.ERR_PROC_FAILED, onOne.error());
        assertFalse(onTwo.done() || onAny.done());
        probes.fail(2, true, gone);
        assertEquals(ErrorClass.ERR_PROC_FAILED, onTwo.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, onAny.error());
        assertTrue(probes.isEmpty());
    }

    @Test
    void closingFailsEveryWaitingProbe() {
        WaitingProbes probes = new WaitingProbes();
        Req a = new Req();
        Req b = new Req();
        waitFor(probes, 1, 5, true, a);
        waitFor(probes, ANY, ANY, false, b);
        probes.failAll(new MpiException(ErrorClass.ERR_OTHER, "closed"));
        assertEquals(ErrorClass.ERR_OTHER, a.error());
        assertEquals(ErrorClass.ERR_OTHER, b.error());
        assertTrue(probes.isEmpty());
    }
}
