package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;

import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/**
 * The unexpected store alone: an eager payload copied aside and its packet given back at once, an
 * RTS's bytes held in their sender's packet only until the next round, waiting probes told.
 */
class UnexpectedMessagesTest {
    private static final long BITS = MatchBits.of(CoreRig.CONTEXT, 1, 5);

    private static Unexpected find(Parts parts) {
        return parts.matcher.probe(BITS, 0);
    }

    @Test
    void anEagerPayloadIsCopiedAsideAndItsPacketGoesBackAtOnce() {
        Parts parts = new Parts(2);
        byte[] data = bytes(40, 1);
        Packet p = Parts.from(PacketKind.EAGER, 1, 5, 9, 40, data);
        parts.unexpected.arrived(PacketKind.EAGER, p);
        assertSame(p, parts.fabric.readReleased());
        Unexpected u = find(parts);
        assertEquals(PacketKind.EAGER, u.kind);
        assertNull(u.held);
        assertArrayEquals(data, u.data.asSlice(u.dataOffset, u.dataBytes).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(40, parts.meter("jspin.unexpected.bytes.copied"));
        assertFalse(parts.unexpected.holdsBriefly());
    }

    @Test
    void anRtsKeepsItsBytesInItsSendersPacketUntilTheNextRoundThenDropsThemAndTheirCredit() {
        Parts parts = new Parts(2, CoreRig.SMALL.withEagerCredit(200));
        Packet p = Parts.from(PacketKind.RTS, 1, 5, 9, 600, bytes(100, 2));
        parts.unexpected.arrived(PacketKind.RTS, p);
        assertNull(parts.fabric.readReleased(), "held, not copied");
        assertTrue(parts.unexpected.holdsBriefly());
        Unexpected u = find(parts);
        assertSame(p, u.held);
        assertEquals(100, u.dataBytes);
        assertEquals(0, parts.meter("jspin.unexpected.bytes.copied"));

        assertEquals(1, parts.unexpected.dropHeldBriefly());
        assertSame(p, parts.fabric.readReleased());
        assertEquals(0, u.dataBytes, "the sender sends them again when the CTS asks");
        assertNull(u.data);
        assertSame(u, find(parts), "the envelope still waits for its receive");
        assertTrue(parts.credit.hasDue(), "their credit goes back to the sender");
        assertEquals(100, parts.credit.settle(1));
    }

    @Test
    void anRtsTakenBeforeTheNextRoundIsOnlyForgotten() {
        Parts parts = new Parts(2);
        Packet p = Parts.from(PacketKind.RTS, 1, 5, 9, 600, bytes(100, 3));
        parts.unexpected.arrived(PacketKind.RTS, p);
        Unexpected u = find(parts);
        parts.unexpected.release(u); // a receive took its bytes
        assertSame(p, parts.fabric.readReleased());
        assertEquals(0, parts.unexpected.dropHeldBriefly());
        assertFalse(parts.unexpected.holdsBriefly());
        assertNull(parts.fabric.readReleased(), "given back once");
        assertEquals(0, parts.credit.settle(1), "its credit is the receive's to count");
    }

    @Test
    void aWaitingProbeHearsOfTheArrival() {
        Parts parts = new Parts(2);
        Req probe = new Req();
        parts.probes.add(1, MatchBits.select(CoreRig.CONTEXT, 1, 5), MatchBits.ignore(1, 5), true, probe);
        parts.unexpected.arrived(PacketKind.EAGER, Parts.from(PacketKind.EAGER, 1, 5, 9, 40, bytes(40, 4)));
        assertEquals(40, probe.event().messageBytes());
        assertSame(Unexpected.class, probe.matched.getFirst().getClass());
        assertNull(find(parts), "the matched probe took it");
    }

    @Test
    void packetsNobodyTookGoBackWhenTheCoreIsDisposed() {
        Parts parts = new Parts(2);
        Packet p = Parts.from(PacketKind.RTS, 1, 5, 9, 600, bytes(100, 5));
        parts.unexpected.arrived(PacketKind.RTS, p);
        parts.unexpected.releaseAll();
        assertSame(p, parts.fabric.readReleased());
        assertNull(find(parts).held);
    }
}
