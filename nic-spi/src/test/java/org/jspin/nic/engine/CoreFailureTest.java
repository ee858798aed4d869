package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** A peer that fails: what depended on it fails with ERR_PROC_FAILED, nothing else, and nobody waits forever. */
class CoreFailureTest {
    private static final int ANY = -1;

    @Test
    void aFailedPeerFailsEverythingPendingOnIt() {
        CoreRig rig = new CoreRig(2);
        Req rendezvous = rig.send(0, 1, 1, bytes(500, 1)); // RTS out, no CTS will come
        Req eager = rig.send(0, 1, 2, bytes(10, 2)); // out, never released
        Req fromPeer = rig.recv(0, 1, 3, new byte[10]);
        Req fromAny = rig.recv(0, ANY, ANY, new byte[10]);
        Req probe = new Req();
        rig.core(0).probe(1, MatchBits.select(CoreRig.CONTEXT, 1, 4), MatchBits.ignore(1, 4), false, true, probe);
        rig.core(0).round();
        assertEquals(2, rig.fabric(0).outboundCount());
        assertFalse(rendezvous.done() || eager.done() || fromPeer.done() || fromAny.done() || probe.done());

        rig.fabric(0).failPeer(1, "test");
        rig.core(0).round();
        for (Req r : List.of(rendezvous, eager, fromPeer, fromAny, probe)) {
            assertEquals(ErrorClass.ERR_PROC_FAILED, r.error(), r.events.toString());
        }
        assertEquals(List.of("sendStarted s1", "sendStarted s2", "fill s2 0+10"), rig.path(0).calls.subList(0, 3));
        assertEquals(java.util.Set.of("sendEnded s1", "sendEnded s2"), java.util.Set.copyOf(rig.path(0).calls("sendEnded")));
        assertEquals(List.of("abandon r3", "abandon r4"), rig.path(0).calls("abandon"), "never matched, so never started");

        // and later operations on that peer fail at once, without a round
        Req late = rig.send(0, 1, 5, bytes(10, 3));
        assertEquals(ErrorClass.ERR_PROC_FAILED, late.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, rig.recv(0, 1, 5, new byte[1]).error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, rig.recv(0, ANY, 5, new byte[1]).error(), "nobody else is left");
        Req lateProbe = new Req();
        rig.core(0).probe(1, MatchBits.select(CoreRig.CONTEXT, 1, 4), MatchBits.ignore(1, 4), false, true, lateProbe);
        assertEquals(ErrorClass.ERR_PROC_FAILED, lateProbe.event().error().errorClass());
        rig.fabric(0).failPeer(1, "again");
        assertEquals(1, rig.core(0).round(), "told twice: nothing more happens");
        assertEquals(1, late.events.size());
    }

    @Test
    void aWildcardReceiveWaitsWhileAnotherRankIsAlive() {
        CoreRig rig = new CoreRig(3);
        Req fromAny = rig.recv(0, ANY, ANY, new byte[10]);
        Req fromOne = rig.recv(0, 1, ANY, new byte[10]);
        rig.fabric(1).close();
        rig.run();
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromOne.error());
        assertFalse(fromAny.done(), "rank 2 may still send");
        rig.send(2, 0, 9, bytes(10, 4));
        rig.run();
        assertNull(fromAny.error());
        assertEquals(2, MatchBits.source(fromAny.event().matchBits()));

        Req waiting = rig.recv(0, ANY, ANY, new byte[10]);
        rig.fabric(2).close();
        rig.run();
        assertEquals(ErrorClass.ERR_PROC_FAILED, waiting.error(), "the last one left");
    }

    @Test
    void aSenderFailingMidStreamFailsTheReceiveAfterWhatArrived() {
        CoreRig rig = new CoreRig(2);
        rig.fabric(0).linkCapacity(1); // one packet per step
        Req recv = rig.recv(1, 0, 1, new byte[2000]);
        rig.send(0, 1, 1, bytes(2000, 5));
        while (rig.path(1).calls("deliver").size() < 2) {
            rig.step();
        }
        rig.fabric(0).close();
        rig.network.runUntilQuiescent(rig.core(1)::round);
        assertEquals(ErrorClass.ERR_PROC_FAILED, recv.error());
        long delivered = rig.path(1).calls("deliver").size() * 256L;
        assertEquals(delivered, recv.event().deliveredBytes());
        assertEquals("abandon r1", rig.path(1).calls.getLast());
        assertTrue(rig.path(1).calls("finish").isEmpty());
    }

    @Test
    void aReceiverFailingMidStreamFailsTheSendAndStopsItsData() {
        CoreRig rig = new CoreRig(2);
        rig.fabric(0).linkCapacity(1);
        rig.recv(1, 0, 1, new byte[2000]);
        Req send = rig.send(0, 1, 1, bytes(2000, 6));
        while (rig.path(0).calls("fill").size() < 3) {
            rig.step();
        }
        rig.fabric(1).close();
        int fills = rig.path(0).calls("fill").size();
        rig.network.runUntilQuiescent(rig.core(0)::round);
        assertEquals(ErrorClass.ERR_PROC_FAILED, send.error());
        assertEquals(fills, rig.path(0).calls("fill").size(), "no chunk is packed after the failure");
        assertEquals(List.of("sendEnded s1"), rig.path(0).calls("sendEnded"));
        assertFalse(rig.core(0).hasPendingWork(), "its backlog and queues are empty");
    }

    @Test
    void aFailedSendsPacketsWaitingInTheBacklogGoBackToThePoolUnsent() {
        CoreRig rig = new CoreRig(2);
        EmbeddedFabric f0 = rig.fabric(0);
        f0.linkCapacity(1);
        Req first = rig.send(0, 1, 1, bytes(10, 1));
        Req second = rig.send(0, 1, 2, bytes(10, 2));
        rig.core(0).round();
        assertEquals(1, f0.outboundCount(), "the first is out; the second waits in the backlog, packed");
        assertEquals(2, rig.meter("jspin.packets.in.flight", 0));

        f0.failPeer(1, "test");
        rig.core(0).round();
        assertEquals(ErrorClass.ERR_PROC_FAILED, first.error());
        assertEquals(ErrorClass.ERR_PROC_FAILED, second.error());
        assertFalse(rig.core(0).hasPendingWork(), "nothing waits in the backlog");
        assertEquals(1, rig.meter("jspin.packets.in.flight", 0), "only the packet the fabric holds");
        assertEquals(List.of("released s2"), rig.path(0).calls("released"));

        f0.readOutbound(); // the link has room again
        rig.core(0).round();
        assertEquals(0, f0.outboundCount(), "the failed send's packet never reached the fabric");
    }

    @Test
    void aDepartedRanksPacketsWaitingInTheBacklogGoBackToThePoolUnsent() {
        CoreRig rig = new CoreRig(3);
        EmbeddedFabric f1 = rig.fabric(1);
        rig.recv(1, 0, 1, new byte[2000]);
        rig.send(0, 1, 1, bytes(2000, 3));
        f1.linkCapacity(0); // rank 1 sends nothing: its CTS to rank 0 waits in its backlog
        rig.step();
        rig.step();
        assertTrue(rig.core(1).hasPendingWork(), "the CTS waits");
        assertEquals(1, rig.meter("jspin.packets.in.flight", 1));
        byte[] toTwo = bytes(10, 4);
        byte[] atTwo = new byte[10];
        Req recvAtTwo = rig.recv(2, 1, 2, atTwo);
        Req sendToTwo = rig.send(1, 2, 2, toTwo); // behind the CTS

        f1.failPeer(0, "test");
        rig.core(1).round(); // the departure is noticed while the link is still full
        f1.linkCapacity(Integer.MAX_VALUE);
        rig.run();
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1), "the CTS went back to the pool");
        assertNull(sendToTwo.error());
        assertNull(recvAtTwo.error());
        assertArrayEquals(toTwo, atTwo);
        assertFalse(rig.wire.stream().anyMatch(w -> w.startsWith("CTS 1>0")), "no CTS to the departed rank: " + rig.wire);
    }

    @Test
    void aSendTheFabricThrowsOnFailsAloneAndTheCoreGoesOn() {
        CoreRig rig = new CoreRig(2);
        // no rank 5: the fabric refuses the RTS, and the eager packet, with ERR_RANK
        Req bad = rig.send(0, 5, 1, bytes(500, 7));
        Req badEager = rig.send(0, 5, 2, bytes(8, 7));
        byte[] buf = new byte[10];
        Req recv = rig.recv(1, 0, 1, buf);
        Req good = rig.send(0, 1, 1, bytes(10, 8));
        rig.run();
        assertEquals(ErrorClass.ERR_RANK, bad.error());
        assertEquals(ErrorClass.ERR_RANK, badEager.error(), "an eager send refused by the fabric fails too");
        assertNull(good.error());
        assertNull(recv.error());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), "the refused packet went back to the pool");
    }

    @Test
    void aSendWhoseSetUpFailsFailsAloneAndNothingIsStranded() {
        CoreRig rig = new CoreRig(2);
        rig.path(0).refuseSendsOf = 300;
        Req bad = rig.send(0, 1, 1, bytes(300, 3));
        byte[] buf = new byte[20];
        Req recv = rig.recv(1, 0, 2, buf);
        Req good = rig.send(0, 1, 2, bytes(20, 4));
        rig.run();
        assertEquals(ErrorClass.ERR_INTERN, bad.error(), "the data path's failure, as an MPI error");
        assertNull(good.error());
        assertNull(recv.error());
        assertFalse(rig.core(0).hasPendingWork(), "the failed send is in no queue");
        assertEquals(List.of("sendEnded s1", "sendEnded s2"), rig.path(0).calls("sendEnded"));
    }
}
