package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.api.Test;

/** Messages above the eager limit: RTS, matched like a message; CTS; DATA chunks straight into the receive. */
class CoreRendezvousTest {
    @Test
    void rtsThenCtsThenDataInChunksStepByStep() {
        CoreRig rig = new CoreRig(2); // eager 64, chunk 256
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        byte[] data = bytes(1000, 4);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);

        rig.core(0).round();
        Packet rts = f0.readOutbound();
        assertEquals(PacketKind.RTS, rts.kind);
        assertEquals(1000, rts.messageLength);
        assertEquals(0, rts.payloadLength, "an RTS carries no data");
        assertEquals(send.send.id(), rts.sendId);
        assertEquals(0, f0.outboundCount());

        f1.writeInbound(rts);
        rig.core(1).round();
        Packet cts = f1.readOutbound();
        assertEquals(PacketKind.CTS, cts.kind);
        assertEquals(0, cts.target);
        assertEquals(1000, cts.messageLength, "the receive accepts all of it");
        assertEquals(send.send.id(), cts.sendId);
        assertEquals(recv.recv.id(), cts.recvId);

        f0.writeInbound(cts);
        assertEquals(1, rig.meter("jspin.packets.in.flight", 1), "the CTS");
        rig.core(0).round(); // the RTS's release, then the CTS: all four chunks go
        assertEquals(1, f1.dueCount(), "the CTS's release, due at rank 1");
        List<Packet> data0 = new ArrayList<>();
        Packet p;
        while ((p = f0.readOutbound()) != null) {
            data0.add(p);
        }
        assertEquals(4, data0.size());
        long[] offsets = {0, 256, 512, 768};
        int[] lengths = {256, 256, 256, 232};
        for (int i = 0; i < 4; i++) {
            assertEquals(PacketKind.DATA, data0.get(i).kind);
            assertEquals(offsets[i], data0.get(i).offset);
            assertEquals(lengths[i], data0.get(i).payloadLength);
            assertEquals(recv.recv.id(), data0.get(i).recvId);
            f1.writeInbound(data0.get(i));
        }
        assertFalse(recv.done());
        rig.core(1).round();
        assertNull(recv.event().error());
        assertArrayEquals(data, buf);
        assertEquals(1000, recv.event().deliveredBytes());
        assertFalse(send.done(), "not before its packets are back");
        assertEquals(4, rig.core(0).round(), "the four DATA packets' releases");
        assertNull(send.event().error());
        assertEquals(1000, send.event().deliveredBytes());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    @Test
    void chunksLandInTheReceiveOnlyWhenTheyBelongToItAndAreNotCopiedAgain() {
        CoreRig rig = new CoreRig(2); // eager 64, chunk 256
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        rig.path(1).lands = true;
        byte[] data = bytes(1000, 6);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.core(0).round();
        f1.writeInbound(f0.readOutbound()); // RTS
        rig.core(1).round();
        f0.writeInbound(f1.readOutbound()); // CTS
        rig.core(0).round();
        List<Packet> chunks = new ArrayList<>();
        Packet p;
        while ((p = f0.readOutbound()) != null) {
            chunks.add(p);
        }
        assertEquals(4, chunks.size());

        Packet first = chunks.get(0);
        assertEquals(PacketKind.DATA, first.kind);
        assertNull(rig.core(1).landing(header(first, h -> h.kind = PacketKind.EAGER)), "only DATA lands");
        assertNull(rig.core(1).landing(header(first, h -> h.recvId = 999)), "no such receive");
        assertNull(rig.core(1).landing(header(first, h -> h.source = 1)), "not from the matched peer");
        assertNull(rig.core(1).landing(header(first, h -> h.sendId = 999)), "not the matched send");
        assertNull(rig.core(1).landing(header(first, h -> h.offset = 1000 - 100)), "past the accepted bytes");
        assertNull(rig.core(1).landing(header(first, h -> h.offset = -1)), "negative offset");
        assertNull(rig.core(1).landing(header(first, h -> h.payloadLength = 2000)), "longer than the receive");

        for (Packet c : chunks) {
            MemorySegment place = rig.core(1).landing(c);
            assertEquals(c.payloadLength, place.byteSize());
            // what the fabric does: the payload is read straight into place, the packet marked so
            MemorySegment.copy(c.payload, c.payloadOffset, place, 0, c.payloadLength);
            c.placed = true;
            f1.writeInbound(c);
        }
        rig.core(1).round();
        assertNull(recv.event().error());
        assertArrayEquals(data, buf);
        assertEquals(1000, recv.event().deliveredBytes());
        assertEquals(List.of(), rig.path(1).calls("deliver"), "landed chunks are not copied again");
        assertEquals(4, rig.path(1).calls("landing").size());
        assertNull(rig.core(1).landing(first), "the receive is over: nothing lands any more");
        rig.run();
        assertNull(send.event().error());
    }

    /** @return a copy of {@code p}'s header with {@code change} applied */
    private static Packet header(Packet p, java.util.function.Consumer<Packet> change) {
        Packet h = new Packet();
        h.clear();
        h.kind = p.kind;
        h.source = p.source;
        h.target = p.target;
        h.sendId = p.sendId;
        h.recvId = p.recvId;
        h.offset = p.offset;
        h.payloadLength = p.payloadLength;
        change.accept(h);
        return h;
    }

    @Test
    void aLargeMessageNeverLandsUnexpected() {
        CoreRig rig = new CoreRig(2);
        byte[] data = bytes(1000, 5);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertEquals(List.of("RTS 0>1"), rig.wire, "only the envelope went");
        assertFalse(send.done(), "it waits for a CTS");
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 1));

        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertFalse(recv.recv.fromOverflow(), "its bytes came from the network, not the overflow buffer");
        assertEquals(List.of("RTS 0>1", "CTS 1>0", "DATA 0>1 @0+256", "DATA 0>1 @256+256", "DATA 0>1 @512+256",
                "DATA 0>1 @768+232"), rig.wire);
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 1));
    }

    @Test
    void chunksThatSplitElementsArePackedAndUnpackedWithTheCursor() {
        // 90-byte chunks cut ints in the middle; the send is every other int, the receive contiguous
        CoreRig rig = new CoreRig(2, new NicConfig(64, 90, 16, true));
        int n = 300;
        int[] ints = new int[2 * n];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i * 1_000_003;
        }
        int[] got = new int[n];
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(got), n, Datatype.INT);
        Req send = rig.send(0, 1, 1, MemorySegment.ofArray(ints), 1, Datatype.vector(n, 1, 2, Datatype.INT).commit());
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        for (int i = 0; i < n; i++) {
            assertEquals(ints[2 * i], got[i], "int " + i);
        }
        assertEquals(14, rig.path(1).calls("deliver").size(), "1200 bytes in 90-byte chunks");
    }

    @Test
    void manyRendezvousSendsStreamRoundRobinAndAllComplete() {
        CoreRig rig = new CoreRig(2);
        int count = 5;
        byte[][] data = new byte[count][];
        byte[][] bufs = new byte[count][];
        List<Req> recvs = new ArrayList<>();
        List<Req> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            data[i] = bytes(700 + 100 * i, 10 + i);
            bufs[i] = new byte[data[i].length];
            recvs.add(rig.recv(1, 0, i, bufs[i]));
            sends.add(rig.send(0, 1, i, data[i]));
        }
        rig.run();
        for (int i = 0; i < count; i++) {
            assertNull(recvs.get(i).event().error());
            assertNull(sends.get(i).event().error());
            assertArrayEquals(data[i], bufs[i], "message " + i);
        }
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
        assertTrue(rig.wire.lastIndexOf("DATA 0>1 @0+256") < rig.wire.indexOf("DATA 0>1 @256+256"),
                "round robin: every message's first chunk before any second one: " + rig.wire);
    }
}
