package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.api.Test;

/**
 * An RTS matched as its header arrives ({@link ProtocolCore#landing} for an RTS): the CTS goes out
 * before its payload is in, and the payload lands in the receive's memory where the data path has
 * it, or is delivered (unpacked) from a read buffer once the RTS is in. Only for a posted receive
 * that takes the whole message; anything else is matched when the RTS is delivered, as before.
 */
class CoreEarlyRtsTest {
    /** Eager 64, chunk 256, 100 bytes with every RTS. */
    private static final NicConfig WITH_RTS = CoreRig.SMALL.withRtsPayload(100);

    /** What a socket fabric does with a landed payload: read straight into place, the packet marked. */
    private static void land(Packet p, MemorySegment place) {
        MemorySegment.copy(p.payload, p.payloadOffset, place, 0, p.payloadLength);
        p.placed = true;
    }

    @Test
    void theCtsLeavesBeforeThePayloadIsInAndThePayloadIsNotCopiedAgain() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        byte[] data = bytes(1000, 3);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertEquals(PacketKind.RTS, rts.kind);

        MemorySegment place = rig.core(1).landing(rts); // its header is in, its payload not yet
        assertNotNull(place, "a posted contiguous receive takes the payload where it belongs");
        assertEquals(100, place.byteSize());
        rig.core(1).round();
        Packet cts = f1.readOutbound();
        assertNotNull(cts, "the CTS is out while the payload still arrives");
        assertEquals(PacketKind.CTS, cts.kind);
        assertEquals(100, cts.offset, "DATA goes on after what the RTS carries");
        assertEquals(1000, cts.messageLength);
        assertFalse(recv.done());

        land(rts, place);
        f1.writeInbound(rts);
        f0.writeInbound(cts);
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(1000, recv.event().deliveredBytes());
        String r = "r" + recv.recv.id();
        assertEquals(List.of("landing " + r + " 0+100"), rig.path(1).calls("landing"));
        assertEquals(List.of("deliver " + r + " 100+256", "deliver " + r + " 356+256", "deliver " + r + " 612+256",
                "deliver " + r + " 868+132"), rig.path(1).calls("deliver"), "the landed bytes are not copied again");
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    /** The landed bytes count once the RTS is delivered; a DATA chunk read in place behind it completes the receive. */
    @Test
    void itCountsTowardsTheReceiveOnlyOnceTheRtsIsIn() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        byte[] data = bytes(356, 4); // the RTS's 100 and one chunk of 256
        byte[] buf = new byte[356];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        MemorySegment place = rig.core(1).landing(rts);
        rig.core(1).round();
        f0.writeInbound(f1.readOutbound()); // CTS
        rig.core(0).round();
        Packet chunk = f0.readOutbound();
        assertEquals(PacketKind.DATA, chunk.kind);
        assertEquals(100, chunk.offset);
        MemorySegment chunkPlace = rig.core(1).landing(chunk);
        assertNotNull(chunkPlace);
        land(rts, place);
        land(chunk, chunkPlace);
        f1.writeInbound(rts);
        f1.writeInbound(chunk);
        rig.core(1).round();
        assertTrue(recv.done());
        assertNull(recv.event().error());
        assertEquals(356, recv.event().deliveredBytes());
        assertArrayEquals(data, buf);
        rig.run();
        assertNull(send.event().error());
    }

    @Test
    void withoutAPostedReceiveTheRtsWaitsUnexpectedAsBefore() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        byte[] data = bytes(600, 5);
        Req send = rig.send(0, 1, 5, data);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertNull(rig.core(1).landing(rts), "nobody asked for it yet");
        Req other = rig.recv(1, 0, 6, new byte[600]); // another tag: no match
        assertNull(rig.core(1).landing(rts));
        rig.fabric(1).writeInbound(rts);
        rig.run();
        assertFalse(send.done());
        byte[] buf = new byte[600];
        Req recv = rig.recv(1, 0, 5, buf);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertFalse(other.done());
    }

    @Test
    void aReceiveThatTruncatesIsMatchedWhenTheRtsIsInAndStillReportsIt() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        byte[] data = bytes(500, 6);
        byte[] buf = new byte[300];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertNull(rig.core(1).landing(rts), "a truncating receive is not matched early");
        assertEquals(List.of(), rig.path(1).calls("receiveStarted"), "nor touched");
        rig.fabric(1).writeInbound(rts);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertArrayEquals(java.util.Arrays.copyOf(data, 300), buf);
        assertNull(send.event().error());
    }

    @Test
    void aReceiveTheCpuUnpacksIsMatchedAtTheHeaderAndTakesThePayloadWhenTheRtsIsIn() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        Datatype v = Datatype.vector(100, 2, 3, Datatype.INT).commit(); // not contiguous: no memory to land in
        MemorySegment src = MemorySegment.ofArray(bytes((int) v.trueExtent(), 7));
        MemorySegment dst = MemorySegment.ofArray(new byte[(int) v.trueExtent()]);
        Req recv = rig.recv(1, 0, 5, dst, 1, v);
        Req send = rig.send(0, 1, 5, src, 1, v);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertNull(rig.core(1).landing(rts), "its payload is read into a read buffer");
        rig.core(1).round();
        Packet cts = f1.readOutbound();
        assertNotNull(cts, "the CTS is out while the payload still arrives");
        assertEquals(PacketKind.CTS, cts.kind);
        assertEquals(100, cts.offset, "DATA goes on after what the RTS carries");
        String r = "r" + recv.recv.id();
        assertEquals(List.of(), rig.path(1).calls("deliver"), "nothing to unpack before the payload is in");

        f1.writeInbound(rts);
        rig.core(1).round();
        assertEquals(List.of("deliver " + r + " 0+100"), rig.path(1).calls("deliver"));
        assertFalse(recv.done());
        f0.writeInbound(cts);
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertEquals(v.size(), recv.event().deliveredBytes());
        MemorySegment want = MemorySegment.ofArray(new byte[(int) v.size()]);
        MemorySegment got = MemorySegment.ofArray(new byte[(int) v.size()]);
        v.pack(1, src, want);
        v.pack(1, dst, got);
        assertEquals(-1, want.mismatch(got));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    @Test
    void aPayloadThatCannotBeUnpackedFailsTheReceiveWhoseCtsIsOut() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        Datatype v = Datatype.vector(100, 2, 3, Datatype.INT).commit();
        Req recv = rig.recv(1, 0, 5, MemorySegment.ofArray(new byte[(int) v.trueExtent()]), 1, v);
        rig.send(0, 1, 5, MemorySegment.ofArray(bytes((int) v.trueExtent(), 8)), 1, v);
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertNull(rig.core(1).landing(rts));
        rig.core(1).round();
        assertEquals(PacketKind.CTS, f1.readOutbound().kind);
        rts.payload = MemorySegment.ofArray(new byte[10]); // shorter than the payload it claims
        rts.payloadOffset = 0;
        f1.writeInbound(rts);
        rig.core(1).round();
        assertTrue(recv.done());
        assertEquals(ErrorClass.ERR_BUFFER, recv.error(), "the cursor's error class, kept");
        assertTrue(recv.event().error().getMessage().contains("[0, 100)"),
                recv.event().error().getMessage());
    }

    @Test
    void aPeerLostWhileThePayloadLandsFailsTheReceive() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        rig.path(1).lands = true;
        EmbeddedFabric f0 = rig.fabric(0);
        Req recv = rig.recv(1, 0, 5, new byte[1000]);
        rig.send(0, 1, 5, bytes(1000, 8));
        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertNotNull(rig.core(1).landing(rts));
        rig.core(1).onPeerFailed(0, "test: connection reset");
        assertTrue(recv.done());
        assertEquals(ErrorClass.ERR_PROC_FAILED, recv.error());
    }
}
