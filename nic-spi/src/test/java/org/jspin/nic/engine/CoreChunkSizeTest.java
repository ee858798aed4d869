package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Test;

/** The chunk size: the NIC's own, or by default the fabric's ({@link NicConfig#over(int)}). */
class CoreChunkSizeTest {
    @Test
    void byDefaultTheFabricChoosesAndASizeTheNicSetsWins() {
        assertEquals(NicConfig.FABRIC_CHOICE, NicConfig.DEFAULT.chunkSize());
        assertEquals(512 << 10, NicConfig.DEFAULT.over(512 << 10).chunkSize());
        assertEquals(4096, NicConfig.DEFAULT.withChunkSize(4096).over(512 << 10).chunkSize());
        assertEquals(NicConfig.FABRIC_CHOICE,
                NicConfig.DEFAULT.withChunkSize(4096).withChunkSize(NicConfig.FABRIC_CHOICE).chunkSize());
    }

    @Test
    void theFabricsChunkMakesRoomForAnEagerLimitSetAboveItAndBoundsTheRtsPayload() {
        assertEquals(300 << 10, NicConfig.DEFAULT.withEagerLimit(300 << 10).over(256 << 10).chunkSize(),
                "an eager message is one packet");
        NicConfig rts = NicConfig.DEFAULT.withRtsPayload(400 << 10);
        assertEquals(256 << 10, rts.over(256 << 10).rtsPayload());
        assertEquals(400 << 10, rts.over(512 << 10).rtsPayload());
    }

    @Test
    void aChunkBelow64BytesIsRefusedNamingIt() {
        for (int bad : new int[] {63, 0, -2}) {
            MpiException e = assertThrows(MpiException.class, () -> NicConfig.DEFAULT.withChunkSize(bad));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
        }
        MpiException e = assertThrows(MpiException.class, () -> NicConfig.DEFAULT.over(10));
        assertTrue(e.getMessage().contains("10"), e.getMessage());
    }

    /** A fabric preferring 1000-byte chunks gets its 3000-byte rendezvous message in three DATA packets. */
    @Test
    void aCoreSendsTheChunksItsFabricPrefers() {
        CoreRig rig = new CoreRig(2, NicConfig.DEFAULT.withEagerLimit(0), 0, 1000);
        byte[] sent = bytes(3000, 3);
        byte[] got = new byte[3000];
        rig.recv(1, 0, 5, got);
        rig.send(0, 1, 5, sent);
        rig.run();
        assertArrayEquals(sent, got);
        assertEquals(List.of("RTS 0>1", "CTS 1>0", "DATA 0>1 @0+1000", "DATA 0>1 @1000+1000", "DATA 0>1 @2000+1000"),
                rig.wire);
    }
}
