package org.jspin.replay.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.NicCatalog;
import org.junit.jupiter.api.Test;

/** The host's and the simulated NIC's costs, as {@code jspin project --nic} finds them on the class path. */
class CostsFactoriesTest {
    /** 256 doubles, one in every two: what a halo's column looks like to a NIC. */
    private static final MessageType STRIDED = new MessageType(
            "{\"vector\": {\"count\": 256, \"blocklength\": 1, \"stride\": 2, \"of\": \"double\"}}", 256 * 8, false);

    @Test
    void theCatalogFindsTheHostAndTheSimulatedNicWithoutWarning() {
        List<String> warnings = new ArrayList<>();
        NicCatalog catalog = new NicCatalog();
        MessageCosts host = catalog.costs("host", TimingConfig.PAPER, warnings::add);
        MessageCosts sim = catalog.costs("sim:rw-cp", TimingConfig.PAPER, warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals("host", host.nic());
        assertEquals("sim:rw-cp", sim.nic());
        assertEquals("sim:auto", catalog.costs("sim", TimingConfig.PAPER, warnings::add).nic());
        assertTrue(host.sendCpuNs(STRIDED, 1) > 0 && host.recvCpuNs(STRIDED, 1) > 0, "the host packs and unpacks");
        assertEquals(0, sim.sendCpuNs(STRIDED, 1) + sim.recvCpuNs(STRIDED, 1), "the NIC leaves the CPU free");
    }

    @Test
    void anUnknownHostVariantOrStrategyIsRefusedNamingIt() {
        NicCatalog catalog = new NicCatalog();
        MpiException host = assertThrows(MpiException.class, () -> catalog.costs("host:fast", TimingConfig.PAPER, w -> { }));
        assertEquals(ErrorClass.ERR_ARG, host.errorClass());
        assertTrue(host.getMessage().contains("host:fast"), host.getMessage());
        MpiException sim = assertThrows(MpiException.class, () -> catalog.costs("sim:warp", TimingConfig.PAPER, w -> { }));
        assertEquals(ErrorClass.ERR_ARG, sim.errorClass());
        assertTrue(sim.getMessage().contains("warp"), sim.getMessage());
    }
}
