package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/**
 * The receiver alone, fed hand-made packets: EAGER and RTS match the first posted receive or wait
 * unexpected, a matched RTS gets its CTS, DATA lands in order, CREDIT comes and goes back.
 */
class ReceiverTest {
    private static final byte[] NONE = new byte[0];

    @Test
    void anEagerMessageFillsThePostedReceiveAndItsPacketGoesBack() {
        Parts parts = new Parts(2);
        byte[] buf = new byte[64];
        Req r = parts.recv(1, 5, buf);
        byte[] data = bytes(40, 1);
        Packet p = Parts.from(PacketKind.EAGER, 1, 5, 9, 40, data);
        parts.receiver.onEager(p, null);
        assertNull(r.error());
        assertEquals(40, r.event().deliveredBytes());
        assertArrayEquals(data, Arrays.copyOf(buf, 40));
        assertSame(p, parts.fabric.readReleased());
        assertEquals(1, parts.meter("jspin.messages.received"));
        assertEquals(40, parts.meter("jspin.bytes.received"));
    }

    @Test
    void anEagerMessageNobodyAskedForWaitsUntilAReceiveTakesIt() {
        Parts parts = new Parts(2);
        byte[] data = bytes(40, 2);
        parts.receiver.onEager(Parts.from(PacketKind.EAGER, 1, 5, 9, 40, data), null);
        Unexpected u = parts.matcher.take(MatchBits.select(CoreRig.CONTEXT, 1, 5), MatchBits.ignore(1, 5));
        byte[] buf = new byte[64];
        Req r = parts.receive(1, 5, buf);
        parts.receiver.consume(r.recv, u);
        assertTrue(r.recv.fromOverflow());
        assertEquals(40, r.event().deliveredBytes());
        assertArrayEquals(data, Arrays.copyOf(buf, 40));
    }

    @Test
    void aMatchedRtsGetsItsCtsAndItsDataLandsChunkByChunk() {
        Parts parts = new Parts(2);
        byte[] buf = new byte[600];
        Req r = parts.recv(1, 5, buf);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, NONE), null);
        assertTrue(parts.receiver.hasCtsDue());
        assertEquals(1, parts.receiver.pump());
        Packet cts = parts.sent();
        assertEquals(PacketKind.CTS, cts.kind);
        assertEquals(1, cts.target);
        assertEquals(9, cts.sendId);
        assertEquals(r.recv.id, cts.recvId);
        assertEquals(600, cts.messageLength);
        assertEquals(0, cts.offset);

        byte[] data = bytes(600, 3);
        for (int off = 0; off < 600; off += 256) {
            assertFalse(r.done());
            parts.receiver.onData(Parts.data(1, 9, r.recv.id, off, Arrays.copyOfRange(data, off, Math.min(600, off + 256))));
        }
        assertEquals(600, r.event().deliveredBytes());
        assertArrayEquals(data, buf);
    }

    @Test
    void theBytesAnRtsCarriesAreTakenAndItsCtsAsksForTheRest() {
        Parts parts = new Parts(2, CoreRig.SMALL.withEagerCredit(200));
        byte[] buf = new byte[600];
        parts.recv(1, 5, buf);
        byte[] first = bytes(100, 4);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, first), null);
        assertArrayEquals(first, Arrays.copyOf(buf, 100));
        assertEquals(2, parts.receiver.pump(), "the CTS, and the credit for those bytes (half the credit)");
        Packet cts = parts.sent();
        assertEquals(100, cts.offset);
        Packet credit = parts.sent();
        assertEquals(PacketKind.CREDIT, credit.kind);
        assertEquals(1, credit.target);
        assertEquals(100, credit.messageLength);
    }

    @Test
    void dataForNoLiveReceiveIsOnlyGivenBack() {
        Parts parts = new Parts(2);
        Packet stray = Parts.data(1, 9, 999, 0, bytes(10, 5));
        parts.receiver.onData(stray);
        assertSame(stray, parts.fabric.readReleased());
        assertTrue(parts.path.calls.isEmpty());
    }

    @Test
    void aCreditPacketGivesTheSendersCreditBack() {
        Parts parts = new Parts(2, CoreRig.SMALL.withEagerCredit(200));
        parts.credit.spend(1, 200);
        assertFalse(parts.credit.canSpend(1, 1));
        Packet p = Parts.from(PacketKind.CREDIT, 1, 0, 0, 150, NONE);
        parts.receiver.onCredit(p);
        assertTrue(parts.credit.canSpend(1, 150));
        assertFalse(parts.credit.canSpend(1, 151));
        assertSame(p, parts.fabric.readReleased());
    }

    @Test
    void anRtsFromADepartedRankFailsItsReceiveAndNoCtsGoes() {
        Parts parts = new Parts(2);
        parts.failedRanks.set(1);
        Req r = parts.recv(1, 5, new byte[600]);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, NONE), null);
        assertEquals(ErrorClass.ERR_PROC_FAILED, r.error());
        assertFalse(parts.receiver.hasCtsDue());
    }

    @Test
    void aDepartedRanksMatchedReceivesFailAndTheOthersGoOn() {
        Parts parts = new Parts(3);
        Req fromOne = parts.recv(1, 5, new byte[600]);
        Req fromTwo = parts.recv(2, 5, new byte[600]);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, NONE), null);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 2, 5, 9, 600, NONE), null);
        parts.receiver.failFrom(1, new MpiException(ErrorClass.ERR_PROC_FAILED, "gone"));
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromOne.error());
        assertFalse(fromTwo.done());
        assertEquals(1, parts.receiver.pump(), "only the CTS for rank 2 is left");
        assertEquals(2, parts.sent().target);
        assertFalse(parts.receiver.hasCtsDue());
    }

    @Test
    void aCancelledReceiveIsToldSoAndAbandoned() {
        Parts parts = new Parts(2);
        Req r = parts.recv(1, 5, new byte[10]);
        parts.receiver.cancelled(r.recv);
        assertTrue(r.event().cancelled());
        assertEquals(List.of("abandon r" + r.recv.id), parts.path.calls);
    }
    @Test
    void anRtsMatchedAtItsHeaderTakesItsPayloadFromTheReadBufferOnceItIsIn() {
        Parts parts = new Parts(2);
        byte[] buf = new byte[600];
        Req r = parts.recv(1, 5, buf);
        byte[] data = bytes(600, 6);
        Packet rts = Parts.from(PacketKind.RTS, 1, 5, 9, 600, Arrays.copyOf(data, 100));
        assertNull(parts.early.rts(rts), "no memory to land in: read into a buffer");
        assertEquals(1, parts.receiver.pump());
        assertEquals(100, parts.sent().offset, "the CTS leaves before the payload is in");
        assertTrue(parts.path.calls("deliver").isEmpty());

        parts.receiver.onRts(rts, parts.early.claim(rts));
        assertEquals(List.of("deliver r" + r.recv.id + " 0+100"), parts.path.calls("deliver"));
        assertSame(rts, parts.fabric.readReleased());
        parts.receiver.onData(Parts.data(1, 9, r.recv.id, 100, Arrays.copyOfRange(data, 100, 356)));
        parts.receiver.onData(Parts.data(1, 9, r.recv.id, 356, Arrays.copyOfRange(data, 356, 600)));
        assertEquals(600, r.event().deliveredBytes());
        assertArrayEquals(data, buf);
    }

    @Test
    void anEagerMessageLandedInPlaceCompletesWithNothingToCopy() {
        Parts parts = new Parts(2);
        parts.path.lands = true;
        byte[] buf = new byte[64];
        Req r = parts.recv(1, 5, buf);
        byte[] data = bytes(40, 7);
        Packet h = Parts.from(PacketKind.EAGER, 1, 5, 9, 40, data);
        MemorySegment place = parts.early.eager(h);
        MemorySegment.copy(h.payload, 0, place, 0, 40); // what a socket fabric does: read straight into place
        h.placed = true;
        parts.receiver.onEager(h, parts.early.claim(h));
        assertEquals(40, r.event().deliveredBytes());
        assertTrue(parts.path.calls("deliver").isEmpty());
        assertArrayEquals(data, Arrays.copyOf(buf, 40));
        assertSame(h, parts.fabric.readReleased());
    }
}
