package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.jspin.nic.fabric.embedded.EmbeddedNetwork;
import org.junit.jupiter.api.Test;

/** The sender's limits alone: what the settings name wins; what they leave to the fabric is the fabric's, cut to fit. */
class SendLimitsTest {
    @Test
    void theFabricChoosesWhatTheSettingsLeaveItCutToTheChunk() {
        EmbeddedFabric f = new EmbeddedNetwork(2, 4096).endpoint(0);
        f.preferRtsPayload(10_000);
        f.preferWholeData(1 << 20);
        NicConfig config = CoreRig.SMALL.over(f);
        SendLimits l = SendLimits.of(config, f);
        assertEquals(256, l.chunkSize());
        assertEquals(64, l.eagerLimit());
        assertEquals(256, l.rtsPayload(), "no more than a chunk");
        assertFalse(l.packedRtsPayload(), "the fabric's choice applies to sends in place only");
        assertEquals(4096, l.wholeData(), "no more than the fabric carries");
    }

    @Test
    void anRtsPayloadTheSettingsNameAppliesToEverySend() {
        EmbeddedFabric f = new EmbeddedNetwork(2).endpoint(0);
        f.preferRtsPayload(200);
        SendLimits l = SendLimits.of(CoreRig.SMALL.withRtsPayload(100).over(f), f);
        assertEquals(100, l.rtsPayload());
        assertTrue(l.packedRtsPayload());
        assertEquals(0, l.wholeData());
    }
}
