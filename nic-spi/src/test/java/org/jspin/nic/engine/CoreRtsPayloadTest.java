package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The first bytes of a rendezvous message travelling with its RTS ({@link NicConfig#rtsPayload}):
 * kept by a receive already posted (the CTS then asks for the rest), taken from the sender's
 * packet by one posted before the receiver's next round, dropped and asked for again by one posted
 * later (the embedded fabric's packets are the sender's, as the in-JVM fabric's are), cut short by
 * a truncating receive.
 */
class CoreRtsPayloadTest {
    /** Eager 64, chunk 256, 100 bytes with every RTS. */
    private static final NicConfig WITH_RTS = CoreRig.SMALL.withRtsPayload(100);

    @Test
    void aPostedReceiveKeepsTheRtsBytesAndTheDataGoesOnFromThere() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        byte[] data = bytes(1000, 4);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(1000, recv.event().deliveredBytes());
        assertEquals(1000, send.event().deliveredBytes());
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+256", "DATA 0>1 @356+256",
                "DATA 0>1 @612+256", "DATA 0>1 @868+132"), rig.wire);
        assertTrue(rig.path(1).calls.contains("deliver r" + recv.recv.id() + " 0+100"), rig.path(1).calls.toString());
    }

    @Test
    void aMessageThatFitsInTheRtsEndsWithTheCts() {
        CoreRig rig = new CoreRig(2, CoreRig.SMALL.withRtsPayload(256));
        byte[] data = bytes(200, 5); // above the eager limit, within the RTS payload
        byte[] buf = new byte[200];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertEquals(200, send.event().deliveredBytes());
        assertEquals(List.of("RTS 0>1 +200", "CTS 1>0 from 200"), rig.wire);
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    /**
     * The embedded fabric hands packets over by reference, as the in-JVM one does: an unexpected
     * RTS's bytes are the sender's own, so they are held until the next round rather than copied aside.
     */
    @Test
    void aReceivePostedBeforeTheNextRoundTakesTheRtsBytesFromTheSendersPacket() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        byte[] data = bytes(600, 6);
        Req send = rig.send(0, 1, 5, data);
        rig.step(); // the RTS goes out
        rig.step(); // and arrives unexpected at rank 1, which holds it until its next round
        assertFalse(send.done());
        assertEquals(1, rig.meter("jspin.packets.in.flight", 0), "rank 1 holds the RTS");
        byte[] buf = new byte[600];
        Req recv = rig.recv(1, 0, 5, buf);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 1), "nothing copied aside");
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+256", "DATA 0>1 @356+244"),
                rig.wire);
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
    }

    @Test
    void aReceivePostedLaterAsksForTheRtsBytesAgain() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        byte[] data = bytes(600, 6);
        Req send = rig.send(0, 1, 5, data);
        rig.run(); // the RTS arrives unexpected; rank 1's next round gives it back without its bytes
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), "the RTS is back");
        assertFalse(send.done());
        byte[] buf = new byte[600];
        Req recv = rig.recv(1, 0, 5, buf);
        rig.run();
        assertArrayEquals(data, buf);
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 1));
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0", "DATA 0>1 @0+256", "DATA 0>1 @256+256",
                "DATA 0>1 @512+88"), rig.wire);
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    @Test
    void theRtsBytesSpendEagerCreditAndASenderWithoutEnoughSendsTheRtsAlone() {
        // credit 256: two RTSs of 100 bytes each fit, the third goes bare; the receiver gives credit
        // back once half of it has been taken
        CoreRig rig = new CoreRig(2, new NicConfig(64, 256, 16, true, 256).withRtsPayload(100));
        byte[][] data = {bytes(300, 1), bytes(300, 2), bytes(300, 3)};
        Req[] sends = new Req[3];
        for (int i = 0; i < 3; i++) {
            sends[i] = rig.send(0, 1, 5, data[i]);
        }
        rig.run(); // all three RTSs wait unexpected at rank 1, which drops the bytes they carry
        // at its next round and so gives their credit back (half of it taken: one CREDIT)
        assertEquals(List.of("RTS 0>1 +100", "RTS 0>1 +100", "RTS 0>1", "CREDIT 1>0"), rig.wire);
        for (int i = 0; i < 3; i++) {
            byte[] buf = new byte[300];
            Req recv = rig.recv(1, 0, 5, buf);
            rig.run();
            assertArrayEquals(data[i], buf, "message " + i);
            assertNull(recv.event().error());
            assertNull(sends[i].event().error());
        }
        assertTrue(rig.wire.contains("CREDIT 1>0"), rig.wire.toString());
        rig.wire.clear();
        Req again = rig.send(0, 1, 6, bytes(300, 4));
        rig.recv(1, 0, 6, new byte[300]);
        rig.run();
        assertNull(again.event().error());
        assertEquals("RTS 0>1 +100", rig.wire.get(0), "credit given back pays for the next RTS's bytes");
    }

    @Test
    void aTruncatingReceiveKeepsOnlyWhatFits() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        byte[] data = bytes(500, 7);
        byte[] buf = new byte[80]; // shorter than the bytes with the RTS
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertEquals(80, recv.event().deliveredBytes());
        assertArrayEquals(java.util.Arrays.copyOf(data, 80), buf);
        assertNull(send.event().error());
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 80"), rig.wire);
    }

    /**
     * The fabric's choice of RTS bytes, where packets are handed over by reference (as in one JVM):
     * a send in place carries them, a packed send sends its RTS alone, since a receive posted late
     * would drop what it packed; a setting that names the bytes applies to both (the test above).
     */
    @Test
    void byTheFabricsChoiceOnlyASendInPlaceCarriesBytesWhereArrivalsAreTheSenders() {
        CoreRig rig = new CoreRig(2, CoreRig.SMALL, 0, 256, 100);
        rig.path(0).inPlace = true;
        rig.path(1).inPlace = true;
        byte[] data = bytes(600, 9);
        Datatype v = Datatype.vector(60, 2, 3, Datatype.INT).commit(); // 480 bytes, packed
        MemorySegment src = MemorySegment.ofArray(bytes((int) v.trueExtent(), 10));
        MemorySegment dst = MemorySegment.ofArray(new byte[(int) v.trueExtent()]);
        byte[] buf = new byte[600];
        Req recvContiguous = rig.recv(1, 0, 5, buf);
        Req recvPacked = rig.recv(1, 0, 6, dst, 1, v);
        Req contiguous = rig.send(0, 1, 5, data);
        Req packed = rig.send(0, 1, 6, src, 1, v);
        rig.run();
        assertNull(contiguous.event().error());
        assertNull(packed.event().error());
        assertNull(recvContiguous.event().error());
        assertNull(recvPacked.event().error());
        assertArrayEquals(data, buf);
        assertEquals(List.of("RTS 0>1 +100", "RTS 0>1"), rig.wire.stream().filter(w -> w.startsWith("RTS")).toList());
        MemorySegment expected = MemorySegment.ofArray(new byte[(int) v.size()]);
        MemorySegment got = MemorySegment.ofArray(new byte[(int) v.size()]);
        v.pack(1, src, expected);
        v.pack(1, dst, got);
        assertEquals(-1, expected.mismatch(got));
    }

    /** Non-contiguous on both sides, posted in time or late: the sender's cursor goes back to 0 when asked. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void vectorsArriveWholeWhetherTheRtsBytesAreKeptOrDropped(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int rts = 1 + rnd.nextInt(256);
        CoreRig rig = new CoreRig(2, CoreRig.SMALL.withRtsPayload(rts));
        int blocks = 20 + rnd.nextInt(80);
        int block = 1 + rnd.nextInt(12);
        Datatype v = Datatype.vector(blocks, block, block + 1 + rnd.nextInt(3), Datatype.INT).commit();
        long span = v.trueExtent();
        MemorySegment src = MemorySegment.ofArray(bytes((int) span, (int) seed));
        MemorySegment dst = MemorySegment.ofArray(new byte[(int) span]);
        boolean late = rnd.nextBoolean();
        Req recv = late ? null : rig.recv(1, 0, 5, dst, 1, v);
        Req send = rig.send(0, 1, 5, src, 1, v);
        rig.run();
        if (late) {
            recv = rig.recv(1, 0, 5, dst, 1, v);
            rig.run();
        }
        String where = "seed " + seed + ": rts " + rts + ", " + blocks + " blocks of " + block + " ints, late " + late;
        assertNull(recv.event().error(), where);
        assertNull(send.event().error(), where);
        MemorySegment expected = MemorySegment.ofArray(new byte[(int) v.size()]);
        MemorySegment got = MemorySegment.ofArray(new byte[(int) v.size()]);
        v.pack(1, src, expected);
        v.pack(1, dst, got);
        assertEquals(-1, expected.mismatch(got), where);
    }

    @Test
    void aCtsFromAnOffsetTheRtsDidNotCarryFailsTheSend() {
        CoreRig rig = new CoreRig(2, WITH_RTS);
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        Req recv = rig.recv(1, 0, 5, new byte[1000]);
        Req send = rig.send(0, 1, 5, bytes(1000, 8));
        rig.core(0).round();
        f1.writeInbound(f0.readOutbound()); // RTS with 100 bytes
        rig.core(1).round();
        Packet cts = f1.readOutbound();
        assertEquals(PacketKind.CTS, cts.kind);
        assertEquals(100, cts.offset);
        cts.offset = 101; // more than the RTS carried
        f0.writeInbound(cts);
        rig.core(0).round();
        MpiException e = send.event().error();
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("from offset 101"), e.getMessage());
        assertFalse(recv.done(), "the receive waits for DATA that will not come (as for any lost peer)");
    }

    @Test
    void theSettingIsCheckedAndKeptByTheOtherCopies() {
        assertEquals(NicConfig.FABRIC_CHOICE, NicConfig.DEFAULT.rtsPayload());
        MpiException e = assertThrows(MpiException.class, () -> CoreRig.SMALL.withRtsPayload(257));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("257"), e.getMessage());
        assertThrows(MpiException.class, () -> CoreRig.SMALL.withRtsPayload(-2));
        assertEquals(100, WITH_RTS.withEagerLimit(32).withPackets(20).withStreamingUnpack(false).rtsPayload());
        assertEquals(64, WITH_RTS.withRtsPayload(200).withChunkSize(64).rtsPayload(), "never above a chunk");
    }
}
