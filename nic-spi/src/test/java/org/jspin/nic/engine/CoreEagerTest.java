package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jspin.error.ErrorClass;

import org.jspin.error.MpiException;

import org.jspin.nic.NicConfig;

import java.util.ArrayList;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.nic.Event;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** Messages up to the eager limit: one packet, straight into a posted receive or copied aside. */
class CoreEagerTest {
    @Test
    void aPostedReceiveTakesTheMessageStraightFromThePacket() {
        CoreRig rig = new CoreRig(2);
        byte[] data = bytes(40, 1);
        byte[] buf = new byte[40];
        Req recv = rig.recv(1, 0, 7, buf);
        Req send = rig.send(0, 1, 7, data);
        assertFalse(send.done(), "nothing moves before a round");
        rig.run();

        assertArrayEquals(data, buf);
        Event r = recv.event();
        assertEquals(Event.Kind.RECEIVE, r.kind());
        assertNull(r.error());
        assertEquals(40, r.messageBytes());
        assertEquals(40, r.deliveredBytes());
        assertEquals(0, MatchBits.source(r.matchBits()));
        assertEquals(7, MatchBits.tag(r.matchBits()));
        Event s = send.event();
        assertEquals(Event.Kind.SEND, s.kind());
        assertNull(s.error());
        assertEquals(40, s.deliveredBytes());
        assertEquals(List.of("EAGER 0>1"), rig.wire);
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 1));
        assertEquals(1, rig.meter("jspin.messages.received", 1));
        assertEquals(40, rig.meter("jspin.bytes.received", 1));
        assertEquals(1, rig.meter("jspin.messages.sent", 0));
        assertEquals(40, rig.meter("jspin.bytes.sent", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), "the packet is back in the pool");
        assertFalse(recv.recv.fromOverflow());
    }

    @Test
    void anUnexpectedMessageIsCopiedAsideAndItsSendCompletesBeforeAnyReceive() {
        CoreRig rig = new CoreRig(2);
        byte[] data = bytes(40, 2);
        byte[] original = data.clone();
        Req send = rig.send(0, 1, 7, data);
        rig.run();
        assertNull(send.event().error(), "the packet came back once its payload was copied aside");
        assertEquals(40, rig.meter("jspin.unexpected.bytes.copied", 1));
        java.util.Arrays.fill(data, (byte) 0); // the sender may reuse its buffer now

        byte[] buf = new byte[40];
        Req recv = rig.recv(1, 0, 7, buf);
        assertTrue(recv.done(), "it matches the waiting message at once, no round needed");
        assertArrayEquals(original, buf);
        assertEquals(40, recv.event().deliveredBytes());
        assertTrue(recv.recv.fromOverflow());
        assertEquals(List.of("receiveStarted r1 overflow=true", "deliver r1 0+40", "finish r1"), rig.path(1).calls);
    }

    @Test
    void aTypedMessageIsPackedAndUnpackedWithTheCursor() {
        CoreRig rig = new CoreRig(2);
        // every other int of 8 goes: 10, 30, 50, 70
        int[] ints = {10, 20, 30, 40, 50, 60, 70, 80};
        Datatype everyOther = Datatype.vector(4, 1, 2, Datatype.INT).commit();
        MemorySegment src = MemorySegment.ofArray(ints);
        int[] got = new int[4];
        Req recv = rig.recv(1, 0, 3, MemorySegment.ofArray(got), 4, Datatype.INT);
        rig.send(0, 1, 3, src, 1, everyOther);
        rig.run();
        assertNull(recv.event().error());
        assertArrayEquals(new int[] {10, 30, 50, 70}, got);
        assertEquals(16, recv.event().deliveredBytes());
    }

    @Test
    void theEagerPacketCarriesTheEnvelopeSignatureAndPayload() {
        CoreRig rig = new CoreRig(2);
        int[] ints = {1, 2, 3};
        rig.send(0, 1, 9, MemorySegment.ofArray(ints), 3, Datatype.INT);
        assertEquals(0, rig.fabric(0).outboundCount());
        assertTrue(rig.core(0).hasPendingWork(), "queued until the next round");
        rig.core(0).round();
        Packet p = rig.fabric(0).readOutbound();
        assertEquals(PacketKind.EAGER, p.kind);
        assertEquals(0, p.source);
        assertEquals(1, p.target);
        assertEquals(MatchBits.of(CoreRig.CONTEXT, 0, 9), p.matchBits);
        assertEquals(12, p.messageLength);
        assertEquals(3, p.signatureElements);
        assertEquals(12, p.payloadLength);
        assertEquals(2, p.payload.get(ValueLayout.JAVA_INT_UNALIGNED, p.payloadOffset + 4));
        assertSame(null, rig.fabric(0).readOutbound());
        assertFalse(rig.core(0).hasPendingWork());
    }

    @Test
    void aZeroSizeMessageMatchesAndCompletesWithNoBytesMoved() {
        CoreRig rig = new CoreRig(2);
        byte[] buf = bytes(8, 3);
        byte[] before = buf.clone();
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(buf), 8, Datatype.BYTE);
        Req send = rig.send(0, 1, 1, MemorySegment.ofArray(new byte[0]), 0, Datatype.INT);
        rig.run();
        assertNull(recv.event().error());
        assertEquals(0, recv.event().messageBytes());
        assertEquals(0, recv.event().deliveredBytes());
        assertNull(send.event().error());
        assertArrayEquals(before, buf);
        assertEquals(List.of("EAGER 0>1"), rig.wire);
        assertEquals(List.of("sendStarted s1", "released s1", "sendEnded s1"), rig.path(0).calls, "nothing to fill");
        assertEquals(List.of(), rig.path(1).calls, "nothing to start, deliver or finish");

        Req empty = rig.recv(1, 0, 2, MemorySegment.ofArray(new byte[0]), 0, Datatype.INT);
        rig.send(0, 1, 2, MemorySegment.ofArray(new byte[0]), 0, Datatype.INT);
        rig.run();
        assertNull(empty.event().error());
        assertEquals(2, rig.meter("jspin.messages.received", 1));
    }

    @Test
    void eagerCreditBoundsWhatASenderLeavesUnexpectedAndComesBackOnceTaken() {
        // eager 64 B, 256 B of credit: four unexpected eager messages at most, then rendezvous
        CoreRig rig = new CoreRig(2, new NicConfig(64, 256, 16, true, 256));
        List<Req> sends = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            sends.add(rig.send(0, 1, 7, bytes(64, 10 + i)));
        }
        rig.run();
        assertEquals(List.of("EAGER 0>1", "EAGER 0>1", "EAGER 0>1", "EAGER 0>1", "RTS 0>1", "RTS 0>1"), rig.wire,
                "the fifth message finds no credit left and goes by rendezvous, not buffered at the receiver");
        for (int i = 0; i < 4; i++) {
            assertTrue(sends.get(i).done(), "eager send " + i + " is complete");
        }
        assertFalse(sends.get(4).done(), "a rendezvous send waits for its receive");
        assertEquals(4 * 64, rig.meter("jspin.unexpected.bytes.copied", 1));

        List<byte[]> bufs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] b = new byte[64];
            bufs.add(b);
            rig.recv(1, 0, 7, b);
        }
        rig.run();
        for (int i = 0; i < 6; i++) {
            assertArrayEquals(bytes(64, 10 + i), bufs.get(i), "message " + i + " in order");
            assertTrue(sends.get(i).done());
        }
        assertEquals(1, rig.wire.stream().filter(w -> w.equals("CREDIT 1>0")).count(),
                "the four messages taken in one round are given back in one CREDIT, not one per message");

        rig.wire.clear();
        for (int i = 0; i < 4; i++) {
            rig.send(0, 1, 8, bytes(64, 20 + i));
        }
        rig.run();
        assertEquals(List.of("EAGER 0>1", "EAGER 0>1", "EAGER 0>1", "EAGER 0>1"), rig.wire,
                "with the credit back, messages go eagerly again");
    }

    @Test
    void eagerCreditBelowTwiceTheEagerLimitIsRefused() {
        MpiException e = assertThrows(MpiException.class, () -> new NicConfig(64, 256, 16, true, 100));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("eager credit 100"), e.getMessage());
    }
}
