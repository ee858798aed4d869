package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A packed send's first DATA chunk is packed while its CTS is on the way ({@link DataPath#packsAhead}):
 * sent as the data phase opens if the CTS asks for the data from where the RTS's bytes end, cut
 * short for a receive that takes less, and dropped (its packet back in the pool) otherwise.
 */
class CorePackAheadTest {
    /** Eager 64, chunk 256, 100 bytes with every RTS. */
    private static final NicConfig WITH_RTS = CoreRig.SMALL.withRtsPayload(100);

    private static CoreRig rig(NicConfig config) {
        CoreRig rig = new CoreRig(2, config);
        rig.path(0).packsAhead = true;
        rig.path(1).packsAhead = true;
        return rig;
    }

    @Test
    void theFirstChunkIsPackedBeforeTheCtsArrivesAndSentAsItDoes() {
        CoreRig rig = rig(WITH_RTS);
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        byte[] data = bytes(1000, 1);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        long id = send.send.id();
        rig.core(0).round();
        assertEquals(List.of("fill s" + id + " 0+100", "fill s" + id + " 100+256"), rig.path(0).calls("fill"),
                "the RTS's bytes, then the first chunk, before any CTS");
        Packet rts = f0.readOutbound();
        assertEquals(PacketKind.RTS, rts.kind);
        assertNull(f0.readOutbound(), "the chunk packed ahead waits for the CTS");
        f1.writeInbound(rts);
        rig.core(1).round();
        f0.writeInbound(f1.readOutbound()); // the CTS, from 100
        rig.core(0).round();
        Packet first = f0.readOutbound();
        assertEquals(PacketKind.DATA, first.kind);
        assertEquals(100, first.offset);
        assertEquals(256, first.payloadLength);
        assertEquals(recv.recv.id(), first.recvId, "addressed to the receive the CTS named");
        f1.writeInbound(first);
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(List.of("fill s" + id + " 0+100", "fill s" + id + " 100+256", "fill s" + id + " 356+256",
                "fill s" + id + " 612+256", "fill s" + id + " 868+132"), rig.path(0).calls("fill"),
                "every byte packed once");
        assertEquals(5, Collections.frequency(rig.path(0).calls, "released s" + id), "the RTS and four chunks");
        assertEquals("sendEnded s" + id, rig.path(0).calls.getLast());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1));
    }

    @Test
    void aReceiveThatTakesLessThanTheChunkGetsItsPrefix() {
        CoreRig rig = rig(WITH_RTS);
        byte[] data = bytes(1000, 2);
        byte[] buf = new byte[180];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertArrayEquals(Arrays.copyOf(data, 180), buf);
        assertNull(send.event().error());
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+80"), rig.wire);
        assertEquals(2, rig.path(0).calls("fill").size(), "the chunk packed ahead was the one sent");
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
    }

    @Test
    void aReceiveThatWantsNoMoreThanTheRtsBytesDropsTheChunk() {
        CoreRig rig = rig(WITH_RTS);
        byte[] data = bytes(1000, 3);
        byte[] buf = new byte[80];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertArrayEquals(Arrays.copyOf(data, 80), buf);
        assertNull(send.event().error());
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 80"), rig.wire);
        long id = send.send.id();
        assertEquals(2, Collections.frequency(rig.path(0).calls, "released s" + id), "the RTS and the dropped chunk");
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), "the dropped chunk's packet is back in the pool");
    }

    @Test
    void aCtsFromAnEarlierOffsetHasTheChunkPackedAgainFromThere() {
        CoreRig rig = rig(WITH_RTS);
        EmbeddedFabric f0 = rig.fabric(0);
        EmbeddedFabric f1 = rig.fabric(1);
        rig.recv(1, 0, 5, new byte[1000]);
        Req send = rig.send(0, 1, 5, bytes(1000, 4));
        long id = send.send.id();
        rig.core(0).round();
        f1.writeInbound(f0.readOutbound());
        rig.core(1).round();
        Packet cts = f1.readOutbound();
        cts.offset = 40; // as a receive that kept only 40 of the RTS's bytes would say
        f0.writeInbound(cts);
        rig.core(0).round();
        Packet first = f0.readOutbound();
        assertEquals(40, first.offset);
        assertEquals(256, first.payloadLength);
        assertEquals(List.of("fill s" + id + " 0+100", "fill s" + id + " 100+256", "fill s" + id + " 40+256"),
                rig.path(0).calls("fill").subList(0, 3));
        assertTrue(rig.path(0).calls.contains("released s" + id), "the chunk packed from 100 was given back");
        f0.release(first);
        rig.core(0).round();
    }

    @Test
    void aSendThatFailsWhileItWaitsForTheCtsGivesThePacketBack() {
        CoreRig rig = rig(WITH_RTS);
        Req send = rig.send(0, 1, 5, bytes(1000, 5));
        rig.core(0).round();
        assertEquals(2, rig.path(0).calls("fill").size());
        rig.fabric(0).failPeer(1, "test");
        rig.run();
        assertEquals(ErrorClass.ERR_PROC_FAILED, send.error());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
    }

    @Test
    void aChunkThatCannotBePackedAheadFailsTheSendAndGivesThePacketBack() {
        CoreRig rig = rig(WITH_RTS);
        rig.path(0).refuseFillFrom = 100;
        Req send = rig.send(0, 1, 5, bytes(1000, 7));
        rig.core(0).round();
        assertEquals(ErrorClass.ERR_INTERN, send.error(), "a data path's own failure");
        assertTrue(send.event().error().getMessage().contains("packing bytes from 100"),
                send.event().error().getMessage());
        rig.run();
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), "the RTS released, the chunk's packet back");
    }

    @Test
    void contiguousSendsInPlaceAreNotPackedAhead() {
        CoreRig rig = rig(WITH_RTS);
        rig.path(0).inPlace = true;
        rig.recv(1, 0, 5, new byte[1000]);
        Req send = rig.send(0, 1, 5, bytes(1000, 6));
        rig.core(0).round();
        assertEquals(List.of("fill s" + send.send.id() + " 0+100"), rig.path(0).calls("fill"));
        rig.run();
        assertNull(send.event().error());
    }

    /**
     * Vectors of seeded random shapes, RTS payloads, receive lengths (truncating or not) and
     * posting orders: every byte arrives, and both pools are whole again.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void vectorsArriveWholeWithChunksPackedAhead(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int rts = rnd.nextInt(257);
        CoreRig rig = rig(CoreRig.SMALL.withRtsPayload(rts));
        int blocks = 20 + rnd.nextInt(120);
        int block = 1 + rnd.nextInt(12);
        Datatype v = Datatype.vector(blocks, block, block + 1 + rnd.nextInt(3), Datatype.INT).commit();
        int kept = 1 + rnd.nextInt(blocks); // blocks the receive has room for
        Datatype w = Datatype.vector(kept, block, block + 1 + rnd.nextInt(3), Datatype.INT).commit();
        MemorySegment src = MemorySegment.ofArray(bytes((int) v.trueExtent(), (int) seed));
        MemorySegment dst = MemorySegment.ofArray(new byte[(int) w.trueExtent()]);
        boolean late = rnd.nextBoolean();
        String where = "seed " + seed + ": rts " + rts + ", " + blocks + " blocks of " + block + " ints, "
                + kept + " kept, late " + late;
        Req recv = late ? null : rig.recv(1, 0, 5, dst, 1, w);
        Req send = rig.send(0, 1, 5, src, 1, v);
        rig.run();
        if (late) {
            recv = rig.recv(1, 0, 5, dst, 1, w);
            rig.run();
        }
        assertEquals(kept < blocks ? ErrorClass.ERR_TRUNCATE : null, recv.error(), where);
        assertNull(send.event().error(), where);
        byte[] expected = new byte[(int) v.size()];
        v.pack(1, src, MemorySegment.ofArray(expected));
        byte[] got = new byte[(int) w.size()];
        w.pack(1, dst, MemorySegment.ofArray(got));
        assertArrayEquals(Arrays.copyOf(expected, got.length), got, where);
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0), where);
        assertEquals(0, rig.meter("jspin.packets.in.flight", 1), where);
    }
}
