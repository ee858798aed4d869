package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/**
 * The sender alone, stepped by hand: a message up to the eager limit goes in one EAGER packet, a
 * larger one sends an RTS and streams DATA round robin from the CTS on; a send completes once its
 * packets are back, or fails at once.
 */
class SenderTest {
    /** @return every packet rank 0 sent since, as "kind s(send) r(recv) @offset+length" */
    private static List<String> drain(Parts parts, List<Packet> into) {
        List<String> out = new ArrayList<>();
        Packet p;
        while ((p = parts.sent()) != null) {
            into.add(p);
            out.add(p.kind + " s" + p.sendId + " r" + p.recvId + " @" + p.offset + "+" + p.payloadLength);
        }
        return out;
    }

    @Test
    void aSmallMessageGoesInOneEagerPacketAndCompletesOnceItIsBack() {
        Parts parts = new Parts(2);
        byte[] data = bytes(40, 1);
        Req req = parts.send(1, 5, data);
        assertTrue(parts.sender.hasQueued());
        assertEquals(1, parts.sender.pump());
        Packet p = parts.sent();
        assertEquals(PacketKind.EAGER, p.kind);
        assertEquals(req.send.id, p.sendId);
        assertEquals(40, p.messageLength);
        assertArrayEquals(data, p.payload.asSlice(p.payloadOffset, p.payloadLength).toArray(ValueLayout.JAVA_BYTE));
        assertFalse(req.done(), "its buffer is read until the fabric gives the packet back");

        parts.sender.onReleased(p);
        assertNull(req.error());
        assertEquals(40, req.event().deliveredBytes());
        assertTrue(parts.sender.isIdle());
        assertEquals(1, parts.meter("jspin.messages.sent"));
        assertEquals(40, parts.meter("jspin.bytes.sent"));
    }

    @Test
    void largeMessagesSendAnRtsThenStreamDataRoundRobinFromTheCts() {
        Parts parts = new Parts(2);
        Req a = parts.send(1, 5, bytes(600, 1));
        Req b = parts.send(1, 6, bytes(600, 2));
        assertEquals(2, parts.sender.pump());
        List<Packet> out = new ArrayList<>();
        long sa = a.send.id;
        long sb = b.send.id;
        assertEquals(List.of("RTS s" + sa + " r0 @0+0", "RTS s" + sb + " r0 @0+0"), drain(parts, out));
        assertEquals(0, parts.sender.pump(), "no DATA before the CTS");

        parts.sender.onCts(Parts.cts(1, sa, 70, 600, 0));
        parts.sender.onCts(Parts.cts(1, sb, 71, 600, 0));
        assertEquals(6, parts.sender.pump());
        assertEquals(List.of("DATA s" + sa + " r70 @0+256", "DATA s" + sb + " r71 @0+256",
                "DATA s" + sa + " r70 @256+256", "DATA s" + sb + " r71 @256+256",
                "DATA s" + sa + " r70 @512+88", "DATA s" + sb + " r71 @512+88"), drain(parts, out));

        Packet lastOfA = out.remove(6);
        for (Packet p : out) {
            parts.sender.onReleased(p);
        }
        assertTrue(b.done());
        assertFalse(a.done(), "a packet of it is still out");
        parts.sender.onReleased(lastOfA);
        assertEquals(600, a.event().deliveredBytes());
        assertNull(a.error());
    }

    /** @return a send of 600 bytes to rank 1 whose RTS has gone (and its first chunk been packed, if packed ahead), in {@code out} */
    private static Req rendezvous(Parts parts, List<Packet> out) {
        Req req = parts.send(1, 5, bytes(600, 1));
        parts.sender.pump();
        drain(parts, out);
        assertEquals(PacketKind.RTS, out.getLast().kind);
        return req;
    }

    @Test
    void aTruncatingReceiveGetsWhatItAcceptsAndTheSendSaysSo() {
        Parts parts = new Parts(2);
        List<Packet> out = new ArrayList<>();
        Req req = rendezvous(parts, out);
        parts.sender.onCts(Parts.cts(1, req.send.id, 70, 300, 0));
        parts.sender.pump();
        long s = req.send.id;
        assertEquals(List.of("DATA s" + s + " r70 @0+256", "DATA s" + s + " r70 @256+44"), drain(parts, out));
        out.forEach(parts.sender::onReleased);
        assertEquals(600, req.event().messageBytes());
        assertEquals(300, req.event().deliveredBytes());
        assertEquals(300, parts.meter("jspin.bytes.sent"));
    }

    @Test
    void aCtsAcceptingMoreThanTheMessageFailsTheSendOnce() {
        Parts parts = new Parts(2);
        List<Packet> out = new ArrayList<>();
        Req req = rendezvous(parts, out);
        parts.sender.onCts(Parts.cts(1, req.send.id, 70, 601, 0));
        assertEquals(ErrorClass.ERR_OTHER, req.error());
        parts.sender.onReleased(out.getFirst());
        assertEquals(1, req.events.size(), "told once");
        assertEquals(0, parts.meter("jspin.packets.in.flight"));
    }

    @Test
    void theFirstChunkIsPackedWhileTheCtsIsOnTheWayAndGoesAsSoonAsItComes() {
        Parts parts = new Parts(2);
        parts.path.packsAhead = true;
        List<Packet> out = new ArrayList<>();
        Req req = rendezvous(parts, out);
        long s = req.send.id;
        assertEquals(1, out.size(), "the RTS alone goes");
        assertEquals(List.of("fill s" + s + " 0+256"), parts.path.calls("fill"), "and the first chunk is packed");

        parts.sender.onCts(Parts.cts(1, s, 70, 600, 0));
        assertEquals(List.of("DATA s" + s + " r70 @0+256"), drain(parts, out), "sent with the CTS, not packed again");
        parts.sender.pump();
        assertEquals(List.of("DATA s" + s + " r70 @256+256", "DATA s" + s + " r70 @512+88"), drain(parts, out));
    }

    @Test
    void aChunkPackedAheadIsCutToWhatTheReceiveAccepts() {
        Parts parts = new Parts(2);
        parts.path.packsAhead = true;
        List<Packet> out = new ArrayList<>();
        Req req = rendezvous(parts, out);
        long s = req.send.id;
        parts.sender.onCts(Parts.cts(1, s, 70, 100, 0));
        assertEquals(List.of("DATA s" + s + " r70 @0+100"), drain(parts, out));
        assertEquals(0, parts.sender.pump());
        out.forEach(parts.sender::onReleased);
        assertEquals(100, req.event().deliveredBytes());
    }

    @Test
    void aSendWhoseBytesCannotBePackedFailsAndItsPacketGoesBack() {
        Parts parts = new Parts(2);
        parts.path.refuseFillFrom = 256;
        Req req = rendezvous(parts, new ArrayList<>());
        parts.sender.onCts(Parts.cts(1, req.send.id, 70, 600, 0));
        parts.sender.pump();
        assertEquals(ErrorClass.ERR_INTERN, req.error());
        assertEquals(2, parts.meter("jspin.packets.in.flight"), "the RTS and the first chunk are out; the failed one is back");
        assertEquals(0, parts.sender.pump(), "nothing more of it goes");
    }

    @Test
    void aSendTheDataPathCannotSetUpFailsAtOnce() {
        Parts parts = new Parts(2);
        parts.path.refuseSendsOf = 10;
        Req req = parts.send(1, 5, new byte[10]);
        assertEquals(ErrorClass.ERR_INTERN, req.error());
        assertFalse(parts.sender.hasQueued());
        assertTrue(parts.sender.isIdle());
    }

    @Test
    void aDepartedRanksSendsFailAndTheOthersGoOn() {
        Parts parts = new Parts(3);
        Req toOne = parts.send(1, 5, new byte[10]);
        Req toTwo = parts.send(2, 5, new byte[10]);
        parts.sender.failTo(1, new MpiException(ErrorClass.ERR_PROC_FAILED, "gone"));
        assertEquals(ErrorClass.ERR_PROC_FAILED, toOne.error());
        assertFalse(toTwo.done());
        assertEquals(1, parts.sender.inFlight());
        assertEquals(1, parts.sender.pump());
        assertEquals(2, parts.sent().target);
        parts.sender.failAll(new MpiException(ErrorClass.ERR_OTHER, "closed"));
        assertEquals(ErrorClass.ERR_OTHER, toTwo.error());
        assertTrue(parts.sender.isIdle());
    }
}
