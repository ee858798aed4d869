package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/**
 * A departed rank alone: what waits on it fails once (sends, their backlog, matched and posted
 * receives, probes); a wildcard only once every other rank is gone.
 */
class PeerFailureTest {
    @Test
    void whatWaitsOnTheDepartedRankFailsAndNothingElse() {
        Parts parts = new Parts(3);
        Req sendToOne = parts.send(1, 5, new byte[10]);
        Req sendToTwo = parts.send(2, 5, new byte[10]);
        Req fromOne = parts.recv(1, 5, new byte[10]);
        Req fromTwo = parts.recv(2, 5, new byte[10]);
        Req fromAny = parts.recv(-1, 6, new byte[10]);
        Req probeOne = new Req();
        parts.probes.add(1, MatchBits.select(CoreRig.CONTEXT, 1, 7), MatchBits.ignore(1, 7), false, probeOne);

        parts.peers.onPeerFailed(1, "test");
        assertTrue(parts.peers.hasFailed(1));
        assertEquals(ErrorClass.ERR_PROC_FAILED, sendToOne.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromOne.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, probeOne.error());
        assertFalse(sendToTwo.done() || fromTwo.done() || fromAny.done(), "rank 2 is still there");
        assertEquals(ErrorClass.ERR_PROC_FAILED, parts.peers.gone(1).errorClass());
        assertNull(parts.peers.gone(2));
        assertNull(parts.peers.gone(-1), "a wildcard waits while some other rank lives");

        parts.peers.onPeerFailed(1, "again");
        assertEquals(1, sendToOne.events.size(), "failed once");

        parts.peers.onPeerFailed(2, "test");
        assertEquals(ErrorClass.ERR_PROC_FAILED, sendToTwo.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromTwo.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromAny.error(), "nobody is left to send it");
        assertEquals(ErrorClass.ERR_PROC_FAILED, parts.peers.gone(-1).errorClass());
    }

    @Test
    void theDepartedRanksPacketsLeaveTheBacklogAndItsMatchedReceivesFail() {
        Parts parts = new Parts(3);
        parts.fabric.linkCapacity(0);
        Req fromOne = parts.recv(1, 5, new byte[600]);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, new byte[0]), null);
        assertEquals(1, parts.receiver.pump(), "its CTS, refused by the full link");
        assertFalse(parts.outbox.isEmpty());

        parts.peers.onPeerFailed(1, "test");
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromOne.error());
        assertTrue(parts.outbox.isEmpty(), "its CTS will never go");
        assertEquals(0, parts.meter("jspin.packets.in.flight"));
    }
}
