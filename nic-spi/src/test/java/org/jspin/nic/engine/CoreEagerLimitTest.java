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

/** The eager limit: the NIC's own, or by default the fabric's ({@link NicConfig#eagerLimitOver}). */
class CoreEagerLimitTest {
    @Test
    void byDefaultTheFabricChooses() {
        assertEquals(NicConfig.FABRIC_CHOICE, NicConfig.DEFAULT.eagerLimit());
        assertEquals(64 << 10, NicConfig.DEFAULT.eagerLimitOver(64 << 10));
        assertEquals(NicConfig.DEFAULT_EAGER_LIMIT, NicConfig.DEFAULT.eagerLimitOver(NicConfig.DEFAULT_EAGER_LIMIT));
    }

    @Test
    void aLimitTheNicSetsWinsOverTheFabrics() {
        assertEquals(1000, NicConfig.DEFAULT.withEagerLimit(1000).eagerLimitOver(64 << 10));
        assertEquals(0, NicConfig.DEFAULT.withEagerLimit(0).eagerLimitOver(64 << 10), "0: everything by rendezvous");
    }

    @Test
    void theFabricsChoiceStaysWithinAChunkAndHalfTheCredit() {
        NicConfig small = NicConfig.DEFAULT.withChunkSize(4096);
        assertEquals(4096, small.eagerLimitOver(64 << 10), "an eager message is one packet");
        assertEquals(3000, NicConfig.DEFAULT.withEagerCredit(6000).eagerLimitOver(64 << 10),
                "two eager messages fit in what a receiver keeps for a sender");
        assertEquals(0, NicConfig.DEFAULT.eagerLimitOver(-5));
    }

    @Test
    void onlyTheFabricsChoiceMayBeNegative() {
        MpiException e = assertThrows(MpiException.class, () -> NicConfig.DEFAULT.withEagerLimit(-2));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
        assertEquals(NicConfig.FABRIC_CHOICE,
                NicConfig.DEFAULT.withEagerLimit(5).withEagerLimit(NicConfig.FABRIC_CHOICE).eagerLimit());
    }

    /** The embedded fabric states no preference: 16 KiB go eagerly, one byte more by rendezvous. */
    @Test
    void aCoreUsesTheLimitItsFabricPrefers() {
        int limit = NicConfig.DEFAULT_EAGER_LIMIT;
        CoreRig rig = new CoreRig(2, NicConfig.DEFAULT);
        byte[] eager = bytes(limit, 1);
        byte[] rendezvous = bytes(limit + 1, 2);
        byte[] got1 = new byte[limit];
        byte[] got2 = new byte[limit + 1];
        rig.recv(1, 0, 5, got1);
        rig.recv(1, 0, 6, got2);
        rig.send(0, 1, 5, eager);
        rig.run();
        rig.send(0, 1, 6, rendezvous);
        rig.run();
        assertArrayEquals(eager, got1);
        assertArrayEquals(rendezvous, got2);
        assertEquals(List.of("EAGER 0>1", "RTS 0>1", "CTS 1>0", "DATA 0>1 @0+" + (limit + 1)), rig.wire);
    }
}
