package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** Closing: drain what was accepted, by a deadline on the injected clock, then fail the rest and leave. */
class CoreCloseTest {
    private static final long DRAIN = TimeUnit.MILLISECONDS.toNanos(ProtocolCore.CLOSE_DRAIN_MILLIS);

    @Test
    void nothingInFlightIsDrainedAtOnceButOnlyOnceClosing() {
        CoreRig rig = new CoreRig(2);
        assertFalse(rig.core(0).isDrained(), "not closing");
        rig.core(0).beginClose();
        assertTrue(rig.core(0).isDrained());
    }

    @Test
    void theDrainWaitsForTheLastPacketToComeBack() {
        CoreRig rig = new CoreRig(2);
        Req send = rig.send(0, 1, 1, bytes(500, 1));
        rig.core(0).beginClose();
        assertFalse(rig.core(0).isDrained());
        rig.recv(1, 0, 1, new byte[500]);
        rig.run();
        assertTrue(send.done());
        assertTrue(rig.core(0).isDrained());
    }

    @Test
    void theDrainDeadlineRunsOnTheInjectedClock() {
        CoreRig rig = new CoreRig(2);
        Req send = rig.send(0, 1, 1, bytes(10, 2));
        rig.core(0).round(); // out, and rank 1 never takes it
        rig.core(0).beginClose();
        rig.clock.advance(DRAIN - 1);
        assertFalse(rig.core(0).isDrained());
        rig.clock.advance(1);
        assertFalse(rig.core(0).isDrained(), "exactly at the deadline it still waits");
        rig.clock.advance(1);
        assertTrue(rig.core(0).isDrained(), "past the deadline it gives up");
        assertFalse(send.done());
    }

    @Test
    void stopFailsWhatIsLeftAndDisposeLeavesTheFabric() {
        CoreRig rig = new CoreRig(2);
        Req send = rig.send(0, 1, 1, bytes(500, 3));
        Req recv = rig.recv(0, 1, 2, new byte[10]);
        Req probe = new Req();
        rig.core(0).probe(1, MatchBits.select(CoreRig.CONTEXT, 1, 3), MatchBits.ignore(1, 3), false, true, probe);
        rig.core(0).round();
        rig.core(0).stop();
        for (Req r : List.of(send, recv, probe)) {
            assertEquals(ErrorClass.ERR_OTHER, r.error(), r.events.toString());
            assertTrue(r.events.get(0).error().getMessage().contains("closed"));
        }
        assertEquals(ErrorClass.ERR_OTHER, rig.send(0, 1, 4, bytes(1, 4)).error(), "after stop: at once");
        assertEquals(ErrorClass.ERR_OTHER, rig.recv(0, 1, 4, new byte[1]).error());

        rig.core(0).dispose();
        assertTrue(rig.fabric(0).isClosed());
        assertEquals("close", rig.path(0).calls.getLast());
        Req peerSend = rig.send(1, 0, 5, bytes(10, 5));
        rig.run();
        assertEquals(ErrorClass.ERR_PROC_FAILED, peerSend.error(), "the peer sees the rank gone");
    }
}
