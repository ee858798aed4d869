package org.jspin.replay.cost;

import static org.jspin.replay.cost.CostCacheTest.COLUMN;
import static org.jspin.replay.cost.CostCacheTest.DOUBLES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.junit.jupiter.api.Test;

/** The host's CPU packs and unpacks; its NIC costs nothing beyond LogGOPS. */
class HostCostsTest {
    @Test
    void theModelChargesTheCpuWorkedByHand() {
        HostCosts host = HostCosts.modelled(TimingConfig.PAPER);
        assertEquals("host", host.nic());
        // 1,024 doubles 16 B apart, count 1: 8 KiB packed (128 staging lines), 256 lines each covered in part
        // by four doubles (a line counted once), 1,024 regions at 5 ns, 12.8 GB/s.
        // Pack: staging twice (16,384) + 256 lines read (16,384) = 32,768 B: 2,560 ns + 5,120 ns.
        assertEquals(7_680, host.sendCpuNs(COLUMN, 1));
        // Unpack: staging twice (16,384) + 256 part-lines read and written (32,768) = 49,152 B: 3,840 + 5,120 ns.
        assertEquals(8_960, host.recvCpuNs(COLUMN, 1));
        assertEquals(0, host.sendNicNs(COLUMN, 1));
        assertEquals(0, host.recvNicNs(COLUMN, 1));
    }

    @Test
    void theModelFollowsItsSettings() {
        HostCosts slow = HostCosts.modelled(TimingConfig.PAPER.with(Map.of(TimingParam.HOST_BANDWIDTH, 6.4)));
        assertEquals(2 * 2_560 + 5_120, slow.sendCpuNs(COLUMN, 1));
    }

    @Test
    void contiguousTypesCostNothing() {
        for (HostCosts host : new HostCosts[] {HostCosts.modelled(TimingConfig.PAPER), HostCosts.measured()}) {
            assertEquals(0, host.sendCpuNs(DOUBLES, 1 << 20), host.nic());
            assertEquals(0, host.recvCpuNs(DOUBLES, 1 << 20), host.nic());
        }
    }

    @Test
    void measuredIsLabelledAndTakesTimeForAStridedVector() {
        CostCache cache = new CostCache();
        HostCosts measured = HostCosts.measured(cache);
        assertEquals("host:measured", measured.nic());
        long pack = measured.sendCpuNs(COLUMN, 8);
        assertTrue(pack > 0, "pack " + pack);
        assertTrue(measured.recvCpuNs(COLUMN, 8) > 0);
        assertEquals(pack, measured.sendCpuNs(COLUMN, 8), "measured once, then remembered");
        assertEquals(1, cache.size());
        assertEquals(0, measured.sendNicNs(COLUMN, 8));
    }
}
