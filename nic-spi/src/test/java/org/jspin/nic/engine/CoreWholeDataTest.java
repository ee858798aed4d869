package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A data phase sent whole ({@link org.jspin.nic.fabric.Fabric#preferredWholeData}): a message sent
 * in place whose bytes after the RTS fit in what the fabric prefers goes as one DATA packet; a
 * longer one, or one whose bytes are packed, goes in chunks as before.
 */
class CoreWholeDataTest {
    /** Eager 64, chunk 256, 100 bytes with every RTS. */
    private static final NicConfig WITH_RTS = CoreRig.SMALL.withRtsPayload(100);

    private static CoreRig rig(int wholeData) {
        CoreRig rig = new CoreRig(2, WITH_RTS, wholeData);
        rig.path(0).inPlace = true;
        rig.path(1).inPlace = true;
        return rig;
    }

    @Test
    void aDataPhaseThatFitsGoesAsOnePacket() {
        CoreRig rig = rig(1000);
        byte[] data = bytes(1000, 4);
        byte[] buf = new byte[1000];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(recv.event().error());
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+900"), rig.wire);
    }

    @Test
    void aLongerDataPhaseGoesInChunks() {
        CoreRig rig = rig(899);
        byte[] data = bytes(1000, 5);
        byte[] buf = new byte[1000];
        rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+256", "DATA 0>1 @356+256",
                "DATA 0>1 @612+256", "DATA 0>1 @868+132"), rig.wire);
    }

    @Test
    void packedBytesGoInChunksEvenWhenTheyWouldFit() {
        CoreRig rig = new CoreRig(2, WITH_RTS, 1 << 20); // the data path packs every chunk (not in place)
        byte[] data = bytes(600, 6);
        byte[] buf = new byte[600];
        rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+256", "DATA 0>1 @356+244"), rig.wire);
    }

    @Test
    void aTruncatingReceiveGetsWhatItAcceptsInOnePacket() {
        CoreRig rig = rig(1000);
        byte[] data = bytes(1000, 7);
        byte[] buf = new byte[700];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertEquals(org.jspin.error.ErrorClass.ERR_TRUNCATE, recv.error());
        assertNull(send.event().error());
        assertArrayEquals(java.util.Arrays.copyOf(data, 700), buf);
        assertEquals(List.of("RTS 0>1 +100", "CTS 1>0 from 100", "DATA 0>1 @100+600"), rig.wire);
    }

    /**
     * Seeded: a contiguous message of random length and offset in its buffer, posted in time or
     * late, arrives whole and is sent in as many DATA packets as the rule says.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void contiguousMessagesArriveWholeInTheRightNumberOfPackets(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int wholeData = rnd.nextInt(1500);
        CoreRig rig = rig(wholeData);
        int length = 101 + rnd.nextInt(2000); // more than the RTS carries
        int lead = rnd.nextInt(40);
        Datatype type = Datatype.contiguous(length, Datatype.BYTE).commit();
        byte[] src = bytes(lead + length, (int) seed);
        byte[] dst = new byte[lead + length];
        boolean late = rnd.nextBoolean();
        MemorySegment in = MemorySegment.ofArray(dst).asSlice(lead);
        Req recv = late ? null : rig.recv(1, 0, 5, in, 1, type);
        Req send = rig.send(0, 1, 5, MemorySegment.ofArray(src).asSlice(lead), 1, type);
        rig.run();
        if (late) {
            recv = rig.recv(1, 0, 5, in, 1, type);
            rig.run();
        }
        assertNull(recv.event().error(), "seed " + seed);
        assertNull(send.event().error(), "seed " + seed);
        assertArrayEquals(java.util.Arrays.copyOfRange(src, lead, lead + length),
                java.util.Arrays.copyOfRange(dst, lead, lead + length), "seed " + seed);
        long rest = length - 100; // the RTS's bytes are kept, from the unexpected list when posted late
        long expected = rest <= wholeData ? 1 : (rest + 255) / 256;
        long data = rig.wire.stream().filter(w -> w.startsWith("DATA")).count();
        assertEquals(expected, data, "seed " + seed + ": " + rig.wire);
    }
}
