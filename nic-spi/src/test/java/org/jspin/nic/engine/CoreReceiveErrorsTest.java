package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.jspin.nic.engine.CoreRig.filled;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.api.Test;

/** Truncation and type signature mismatches: what is written, what is reported, and the sender unharmed. */
class CoreReceiveErrorsTest {
    @Test
    void aTruncatedEagerMessageWritesOnlyTheBytesThatFit() {
        CoreRig rig = new CoreRig(2);
        byte[] data = bytes(50, 6);
        byte[] buf = filled(50, 0x55);
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(buf), 30, Datatype.BYTE); // the type map: 30 bytes
        Req send = rig.send(0, 1, 1, data);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertTrue(recv.event().error().getMessage().contains("50 bytes"), recv.event().error().getMessage());
        assertEquals(50, recv.event().messageBytes());
        assertEquals(30, recv.event().deliveredBytes());
        assertArrayEquals(Arrays.copyOf(data, 30), Arrays.copyOf(buf, 30));
        assertArrayEquals(filled(20, 0x55), Arrays.copyOfRange(buf, 30, 50), "nothing beyond the type map");
        assertNull(send.error(), "the sender completes normally");
    }

    @Test
    void aTruncatedRendezvousMessageSendsOnlyTheAcceptedBytes() {
        CoreRig rig = new CoreRig(2);
        byte[] data = bytes(1000, 7);
        byte[] buf = filled(1000, 0x55);
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(buf), 600, Datatype.BYTE);
        Req send = rig.send(0, 1, 1, data);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
        assertEquals(1000, recv.event().messageBytes());
        assertEquals(600, recv.event().deliveredBytes());
        assertArrayEquals(Arrays.copyOf(data, 600), Arrays.copyOf(buf, 600));
        assertArrayEquals(filled(400, 0x55), Arrays.copyOfRange(buf, 600, 1000));
        assertEquals(List.of("RTS 0>1", "CTS 1>0", "DATA 0>1 @0+256", "DATA 0>1 @256+256", "DATA 0>1 @512+88"), rig.wire,
                "only the accepted 600 bytes travel");
        assertNull(send.error());
        assertEquals(600, send.event().deliveredBytes());
        assertEquals(600, rig.meter("jspin.bytes.sent", 0));
    }

    @Test
    void anEagerSignatureMismatchWritesNothing() {
        CoreRig rig = new CoreRig(2);
        int[] ints = {1, 2, 3, 4};
        float[] floats = {9f, 9f, 9f, 9f};
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(floats), 4, Datatype.FLOAT);
        Req send = rig.send(0, 1, 1, MemorySegment.ofArray(ints), 4, Datatype.INT);
        rig.run();
        assertEquals(ErrorClass.ERR_TYPE, recv.error());
        assertEquals(0, recv.event().deliveredBytes());
        assertEquals(16, recv.event().messageBytes());
        assertArrayEquals(new float[] {9f, 9f, 9f, 9f}, floats);
        assertEquals(List.of(), rig.path(1).calls, "the data path never sees a mismatched message");
        assertNull(send.error());
    }

    /**
     * More elements than the receive has, in no more bytes than it has: their types cannot be the
     * receive's (8 ints of 4 bytes in the 32 bytes of 4 doubles), so not a truncation but a mismatch.
     */
    @Test
    void moreElementsThanTheReceiveHasInFewerBytesAreAMismatchNotATruncation() {
        for (int ints : new int[] {8, 100}) { // eager, then rendezvous (limit 64 bytes)
            CoreRig rig = new CoreRig(2);
            double[] doubles = new double[ints / 2];
            Arrays.fill(doubles, 9.0);
            Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(doubles), doubles.length, Datatype.DOUBLE);
            Req send = rig.send(0, 1, 1, MemorySegment.ofArray(new int[ints]), ints, Datatype.INT);
            rig.run();
            assertEquals(ErrorClass.ERR_TYPE, recv.error(), ints + " ints");
            assertTrue(recv.event().error().getMessage().contains(ints + " basic elements in " + 4 * ints + " bytes"),
                    recv.event().error().getMessage());
            assertEquals(0, recv.event().deliveredBytes());
            double[] untouched = new double[ints / 2];
            Arrays.fill(untouched, 9.0);
            assertArrayEquals(untouched, doubles);
            assertNull(send.error());
        }
        CoreRig rig = new CoreRig(2);
        double[] four = new double[4];
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(four), 4, Datatype.DOUBLE);
        rig.send(0, 1, 1, MemorySegment.ofArray(new double[] {1, 2, 3, 4, 5, 6}), 6, Datatype.DOUBLE);
        rig.run();
        assertEquals(ErrorClass.ERR_TRUNCATE, recv.error(), "6 doubles into 4: longer, a truncation");
        assertArrayEquals(new double[] {1, 2, 3, 4}, four);
    }

    @Test
    void aRendezvousSignatureMismatchMovesNoData() {
        CoreRig rig = new CoreRig(2);
        int[] ints = new int[40];
        Arrays.fill(ints, 7);
        float[] floats = new float[40];
        Req recv = rig.recv(1, 0, 1, MemorySegment.ofArray(floats), 40, Datatype.FLOAT);
        Req send = rig.send(0, 1, 1, MemorySegment.ofArray(ints), 40, Datatype.INT);
        rig.run();
        assertEquals(ErrorClass.ERR_TYPE, recv.error());
        assertEquals(0, recv.event().deliveredBytes());
        assertArrayEquals(new float[40], floats);
        assertEquals(List.of("RTS 0>1", "CTS 1>0"), rig.wire, "a CTS for 0 bytes, and no DATA");
        assertNull(send.error(), "the sender completes, having sent nothing");
        assertEquals(0, send.event().deliveredBytes());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
    }

    @Test
    void untypedBytesMatchAnyTypeAndALongerReceiveTypeIsFine() {
        CoreRig rig = new CoreRig(2);
        int[] ints = {5, 6};
        int[] got = new int[4];
        Req asBytes = rig.recv(1, 0, 1, MemorySegment.ofArray(new byte[8]), 8, Datatype.BYTE);
        Req longer = rig.recv(1, 0, 2, MemorySegment.ofArray(got), 4, Datatype.INT);
        rig.send(0, 1, 1, MemorySegment.ofArray(ints), 2, Datatype.INT);
        rig.send(0, 1, 2, MemorySegment.ofArray(ints), 2, Datatype.INT);
        rig.run();
        assertNull(asBytes.error());
        assertNull(longer.error());
        assertArrayEquals(new int[] {5, 6, 0, 0}, got);
    }
}
