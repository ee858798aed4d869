package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.api.Test;

/**
 * An eager message matched as its header arrives ({@link ProtocolCore#landing} for an EAGER packet):
 * when the first posted receive it matches takes it whole into memory the data path has, the
 * payload lands there and nothing copies it again. Anything else is matched when the packet is
 * delivered, as before. (Eager limit 64 bytes: {@link CoreRig#SMALL}.)
 */
class CoreEarlyEagerTest {
    /** What a socket fabric does with a landed payload: read straight into place, the packet marked. */
    private static void land(Packet p, MemorySegment place) {
        MemorySegment.copy(p.payload, p.payloadOffset, place, 0, p.payloadLength);
        p.placed = true;
    }

    /** Two ranks; rank 1's data path has contiguous receives' memory for payloads to land in. */
    private static CoreRig landingRig() {
        CoreRig rig = new CoreRig(2);
        rig.path(1).lands = true;
        return rig;
    }

    /** The eager packet rank 0 sends for {@code data} to rank 1 with tag 5, taken off its fabric. */
    private static Packet eager(CoreRig rig, byte[] data) {
        rig.send(0, 1, 5, data);
        rig.core(0).round();
        Packet p = rig.fabric(0).readOutbound();
        assertEquals(PacketKind.EAGER, p.kind);
        return p;
    }

    @Test
    void aPostedContiguousReceiveTakesThePayloadInPlaceAndNothingCopiesItAgain() {
        CoreRig rig = landingRig();
        byte[] data = bytes(50, 1);
        byte[] buf = new byte[60];
        Req recv = rig.recv(1, 0, 5, buf);
        Packet p = eager(rig, data);

        MemorySegment place = rig.core(1).landing(p); // its header is in, its payload not yet
        assertNotNull(place, "a posted contiguous receive takes the payload where it belongs");
        assertEquals(50, place.byteSize());
        assertFalse(recv.done(), "done only once the payload is in");
        land(p, place);
        rig.fabric(1).writeInbound(p);
        rig.core(1).round();
        assertTrue(recv.done());
        assertNull(recv.event().error());
        assertEquals(50, recv.event().deliveredBytes());
        assertArrayEquals(data, Arrays.copyOf(buf, 50));
        String r = "r" + recv.recv.id();
        assertEquals(List.of("landing " + r + " 0+50"), rig.path(1).calls("landing"));
        assertEquals(List.of(), rig.path(1).calls("deliver"), "the landed bytes are not copied again");
        rig.run();
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    /** MPI's order: the header matched first takes the first receive, the message after it the next. */
    @Test
    void twoMessagesOfOneTagTakeTheReceivesInTheOrderTheyWerePosted() {
        CoreRig rig = landingRig();
        byte[] first = bytes(40, 2);
        byte[] second = bytes(40, 3);
        byte[] a = new byte[40];
        byte[] b = new byte[40];
        Req ra = rig.recv(1, 0, 5, a);
        Req rb = rig.recv(1, 0, 5, b);
        Packet p1 = eager(rig, first);
        Packet p2 = eager(rig, second);
        MemorySegment place = rig.core(1).landing(p1);
        assertNotNull(place);
        land(p1, place);
        rig.fabric(1).writeInbound(p1);
        rig.fabric(1).writeInbound(p2); // delivered as usual, behind the first
        rig.run();
        assertArrayEquals(first, a);
        assertArrayEquals(second, b);
        assertNull(ra.event().error());
        assertNull(rb.event().error());
    }

    @Test
    void withoutAPostedReceiveTheMessageWaitsUnexpectedAsBefore() {
        CoreRig rig = landingRig();
        byte[] data = bytes(30, 4);
        Packet p = eager(rig, data);
        assertNull(rig.core(1).landing(p), "nobody asked for it yet");
        Req other = rig.recv(1, 0, 6, new byte[30]); // another tag: no match
        assertNull(rig.core(1).landing(p));
        rig.fabric(1).writeInbound(p);
        rig.run();
        byte[] buf = new byte[30];
        Req recv = rig.recv(1, 0, 5, buf);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertFalse(other.done());
    }

    @Test
    void aReceiveThatTruncatesIsMatchedWhenThePacketIsInAndStillReportsIt() {
        CoreRig rig = landingRig();
        byte[] data = bytes(50, 5);
        byte[] buf = new byte[20];
        Req recv = rig.recv(1, 0, 5, buf);
        Packet p = eager(rig, data);
        assertNull(rig.core(1).landing(p), "a truncating receive is not matched early");
        assertEquals(List.of(), rig.path(1).calls("receiveStarted"), "nor touched");
        rig.fabric(1).writeInbound(p);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertArrayEquals(Arrays.copyOf(data, 20), buf);
    }

    @Test
    void aReceiveTheCpuUnpacksOrOfAnotherSignatureIsMatchedWhenThePacketIsIn() {
        CoreRig rig = landingRig();
        Datatype v = Datatype.vector(4, 1, 2, Datatype.INT).commit(); // 16 bytes over 28: not contiguous
        MemorySegment src = MemorySegment.ofArray(bytes((int) v.trueExtent(), 6));
        MemorySegment dst = MemorySegment.ofArray(new byte[(int) v.trueExtent()]);
        Req recv = rig.recv(1, 0, 5, dst, 1, v);
        rig.send(0, 1, 5, src, 1, v);
        rig.core(0).round();
        Packet p = rig.fabric(0).readOutbound();
        assertEquals(PacketKind.EAGER, p.kind);
        assertNull(rig.core(1).landing(p), "no memory to land in: nothing gained by matching early");
        assertEquals(List.of(), rig.path(1).calls("receiveStarted"));
        rig.fabric(1).writeInbound(p);
        rig.run();
        assertNull(recv.event().error());
        MemorySegment want = MemorySegment.ofArray(new byte[(int) v.size()]);
        MemorySegment got = MemorySegment.ofArray(new byte[(int) v.size()]);
        v.pack(1, src, want);
        v.pack(1, dst, got);
        assertEquals(-1, want.mismatch(got));

        float[] floats = {9f, 9f, 9f, 9f};
        Req recvFloats = rig.recv(1, 0, 7, MemorySegment.ofArray(floats), 4, Datatype.FLOAT);
        rig.send(0, 1, 7, MemorySegment.ofArray(new int[] {1, 2, 3, 4}), 4, Datatype.INT);
        rig.core(0).round();
        Packet ints = rig.fabric(0).readOutbound();
        assertNull(rig.core(1).landing(ints), "4 ints do not match a receive of 4 floats");
        rig.fabric(1).writeInbound(ints);
        rig.run();
        assertEquals(ErrorClass.ERR_TYPE, recvFloats.error());
        assertArrayEquals(new float[] {9f, 9f, 9f, 9f}, floats, "nothing written");
    }

    @Test
    void aPeerLostWhileThePayloadLandsFailsTheReceiveOnce() {
        CoreRig rig = landingRig();
        Req recv = rig.recv(1, 0, 5, new byte[50]);
        Packet p = eager(rig, bytes(50, 7));
        assertNotNull(rig.core(1).landing(p));
        rig.core(1).onPeerFailed(0, "test: connection reset");
        assertTrue(recv.done());
        assertEquals(ErrorClass.ERR_PROC_FAILED, recv.error());
        rig.fabric(1).writeInbound(p); // a packet that got through after all changes nothing
        rig.core(1).round();
        assertEquals(ErrorClass.ERR_PROC_FAILED, recv.error());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    @Test
    void aNicStoppedWhileThePayloadLandsFailsTheReceive() {
        CoreRig rig = landingRig();
        Req recv = rig.recv(1, 0, 5, new byte[50]);
        Packet p = eager(rig, bytes(50, 8));
        assertNotNull(rig.core(1).landing(p));
        rig.core(1).stop();
        assertTrue(recv.done());
        assertEquals(ErrorClass.ERR_OTHER, recv.error());
        assertTrue(recv.event().error().getMessage().contains("NIC closed"), recv.event().error().getMessage());
    }
}
