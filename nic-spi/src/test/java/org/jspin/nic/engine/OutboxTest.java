package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.nic.fabric.Packet;
import org.junit.jupiter.api.Test;

/** The outbox alone: packets a full link refused wait and go again in order, belong to their send until released, and leave unsent with a failed send or a departed rank. */
class OutboxTest {
    private static Packet to(Parts parts, int target) {
        Packet p = parts.pool.acquire(true);
        p.target = target;
        return p;
    }

    @Test
    void packetsAFullLinkRefusedGoAgainInOrderBeforeAnyNewOne() {
        Parts parts = new Parts(3);
        parts.fabric.linkCapacity(0);
        Packet a = to(parts, 1);
        Packet b = to(parts, 2);
        parts.outbox.send(a);
        parts.outbox.send(b);
        assertFalse(parts.outbox.isEmpty());
        assertEquals(0, parts.outbox.resend(), "the link is still full");
        parts.fabric.linkCapacity(Integer.MAX_VALUE);
        Packet c = to(parts, 1);
        parts.outbox.send(c);
        assertNull(parts.sent(), "a new packet waits behind the backlog, even with room on the link");
        assertEquals(3, parts.outbox.resend());
        assertTrue(parts.outbox.isEmpty());
        assertSame(a, parts.sent());
        assertSame(b, parts.sent());
        assertSame(c, parts.sent());
    }

    @Test
    void aSendsPacketIsCountedOutUntilReleasedAndThenBackInThePool() {
        Parts parts = new Parts(2);
        Req req = parts.op(1, 5, new byte[10]);
        Packet p = to(parts, 1);
        p.sendId = req.send.id;
        parts.outbox.send(req.send, p);
        assertSame(req.send, p.owner);
        assertEquals(1, req.send.packetsOut);
        assertEquals(1, parts.meter("jspin.packets.in.flight"));
        assertSame(p, parts.sent());

        assertSame(req.send, parts.outbox.release(p));
        assertEquals(0, req.send.packetsOut);
        assertEquals(0, parts.meter("jspin.packets.in.flight"));
        assertEquals(List.of("released s" + req.send.id), parts.path.calls);
        assertNull(Outbox.ownerOf(p), "cleared for its next use");
        assertNull(parts.outbox.release(to(parts, 1)), "a CTS or CREDIT belongs to no send");
    }

    @Test
    void aFailedSendsPacketsAndADepartedRanksLeaveTheBacklogUnsent() {
        Parts parts = new Parts(3);
        parts.fabric.linkCapacity(0);
        Req failed = parts.op(1, 5, new byte[10]);
        Req other = parts.op(2, 5, new byte[10]);
        parts.outbox.send(failed.send, to(parts, 1));
        parts.outbox.send(other.send, to(parts, 2));
        parts.outbox.send(to(parts, 2)); // a CTS, say
        Packet kept = to(parts, 1);
        parts.outbox.send(kept);

        parts.outbox.drop(failed.send);
        assertEquals(0, failed.send.packetsOut);
        assertEquals(1, other.send.packetsOut, "another send's packets stay");
        parts.outbox.dropTo(2);
        assertEquals(0, other.send.packetsOut);
        assertEquals(1, parts.meter("jspin.packets.in.flight"), "only the packet for rank 1 is left");

        parts.fabric.linkCapacity(Integer.MAX_VALUE);
        assertEquals(1, parts.outbox.resend());
        assertSame(kept, parts.sent());
        assertNull(parts.sent());
    }

    @Test
    void aPacketTheFabricThrowsOnFailsItsSendAndComesBackToThePool() {
        Parts parts = new Parts(3);
        parts.network.endpoint(2).close();
        Req req = parts.send(2, 5, new byte[10]);
        Packet p = to(parts, 2);
        parts.outbox.send(req.send, p);
        assertTrue(parts.outbox.isEmpty(), "not kept to be sent again");
        assertEquals(ErrorClass.ERR_PROC_FAILED, req.error(), "the send fails, not the core");
        assertEquals(0, req.send.packetsOut);
        assertEquals(0, parts.meter("jspin.packets.in.flight"));
    }

    @Test
    void aBackloggedPacketTheFabricThrowsOnFailsOnlyItsSendAndThePacketsBehindItStillGo() {
        Parts parts = new Parts(3);
        parts.fabric.linkCapacity(0);
        Req dead = parts.op(2, 5, new byte[10]);
        Req live = parts.op(1, 5, new byte[10]);
        Packet toDead = to(parts, 2);
        Packet toLive = to(parts, 1);
        parts.outbox.send(dead.send, toDead);
        parts.outbox.send(live.send, toLive);
        assertEquals(2, parts.meter("jspin.packets.in.flight"));

        parts.network.endpoint(2).close(); // rank 2 leaves before its departure is polled
        parts.fabric.linkCapacity(Integer.MAX_VALUE);
        parts.outbox.resend();
        assertEquals(ErrorClass.ERR_PROC_FAILED, dead.error(), "the send to the departed rank fails");
        assertEquals(0, dead.send.packetsOut);
        assertTrue(parts.outbox.isEmpty());
        assertSame(toLive, parts.sent(), "the packet behind it, another send's to a live rank, still goes");
        assertEquals(1, live.send.packetsOut, "out on the link, not taken for released");
        assertEquals(1, parts.meter("jspin.packets.in.flight"), "the failed packet back in the pool once, the sent one out");
    }
}
