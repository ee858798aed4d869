package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Packed bytes go straight into memory the fabric lends ({@link org.jspin.nic.fabric.Fabric#claim}),
 * as into a shared-memory ring: eager messages and DATA chunks, never a chunk packed ahead (it would
 * hold the fabric's memory through a round trip), never past a backlog, and a pack that fails gives
 * the memory back.
 */
class CoreLentMemoryTest {
    private static CoreRig rig(boolean packsAhead) {
        CoreRig rig = new CoreRig(2, CoreRig.SMALL); // eager 64, chunk 256
        for (int r = 0; r < 2; r++) {
            rig.fabric(r).lendPayloads(true);
            rig.path(r).packsIntoLent = true;
            rig.path(r).packsAhead = packsAhead;
        }
        return rig;
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {40, 1000})
    void packedBytesGoIntoLentMemoryAndArriveWhole(int n) {
        CoreRig rig = rig(false);
        byte[] data = bytes(n, 3);
        byte[] buf = new byte[n];
        Req recv = rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(send.event().error());
        assertNull(recv.event().error());
        assertArrayEquals(data, buf);
        long id = send.send.id();
        List<String> expected = n <= 64 ? List.of("fillLent s" + id + " 0+40")
                : List.of("fillLent s" + id + " 0+256", "fillLent s" + id + " 256+256", "fillLent s" + id + " 512+256",
                        "fillLent s" + id + " 768+232");
        assertEquals(expected, rig.path(0).calls("fillLent"));
        assertEquals(List.of(), rig.path(0).calls("fill"), "nothing packed into staging");
        assertEquals(expected.size(), rig.fabric(0).claims());
        assertEquals(0, rig.meter("jspin.packets.in.flight", 0));
    }

    @Test
    void aChunkPackedAheadUsesStagingAndTheRestLentMemory() {
        CoreRig rig = rig(true);
        byte[] data = bytes(600, 4);
        byte[] buf = new byte[600];
        rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, data);
        rig.run();
        assertNull(send.event().error());
        assertArrayEquals(data, buf);
        long id = send.send.id();
        assertEquals(List.of("fill s" + id + " 0+256"), rig.path(0).calls("fill"), "packed ahead, while the CTS came");
        assertEquals(List.of("fillLent s" + id + " 256+256", "fillLent s" + id + " 512+88"), rig.path(0).calls("fillLent"));
    }

    @Test
    void noMemoryIsClaimedWhilePacketsWaitInTheBacklog() {
        CoreRig rig = rig(false);
        EmbeddedFabric f0 = rig.fabric(0);
        f0.linkCapacity(1);
        rig.recv(1, 0, 5, new byte[40]);
        rig.recv(1, 0, 6, new byte[40]);
        Req a = rig.send(0, 1, 5, bytes(40, 1));
        Req b = rig.send(0, 1, 6, bytes(40, 2));
        rig.core(0).round();
        assertEquals(1, f0.claims(), "the second eager message finds the link full: it is packed into staging");
        assertEquals(1, rig.path(0).calls("fill").size());
        f0.linkCapacity(16);
        rig.run();
        assertNull(a.event().error());
        assertNull(b.event().error());
    }

    @Test
    void aPackThatFailsGivesTheLentMemoryBackAndFailsOnlyItsSend() {
        CoreRig rig = rig(false);
        rig.path(0).refuseFillFrom = 256;
        byte[] buf = new byte[600];
        rig.recv(1, 0, 5, buf);
        Req send = rig.send(0, 1, 5, bytes(600, 8));
        rig.run();
        assertEquals(ErrorClass.ERR_INTERN, send.error(), "a data path's own failure");
        assertTrue(send.event().error().getMessage().contains("packing bytes from 256"), send.event().error().getMessage());
        assertEquals(1, rig.fabric(0).abandoned());
        byte[] data = bytes(40, 9);
        byte[] small = new byte[40];
        Req recv = rig.recv(1, 0, 7, small);
        Req next = rig.send(0, 1, 7, data);
        rig.run();
        assertNull(next.event().error(), "the fabric holds no memory for the failed chunk");
        assertArrayEquals(data, small);
        assertNull(recv.event().error());
    }
}
