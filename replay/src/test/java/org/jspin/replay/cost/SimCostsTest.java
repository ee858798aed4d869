package org.jspin.replay.cost;

import static org.jspin.replay.cost.CostCacheTest.COLUMN;
import static org.jspin.replay.cost.CostCacheTest.DOUBLES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.nic.sim.TimedMessage;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.junit.jupiter.api.Test;

/**
 * The sPIN NIC's costs are its timeline's, as defined: on the paper's preset 5 ps a bit on the link and
 * a link latency of 100 ns; the CPU stays free unless the NIC falls back to it.
 */
class SimCostsTest {
    /** COLUMN with count 2: 16 KiB, 8 packets of 2 KiB, 655,360 ps on the link. */
    private static final long LINK_PS = 16_384L * 8 * 5;

    @Test
    void namedAsJspinSimNamesItsStrategy() {
        assertEquals("sim:auto", new SimCosts(SimConfig.DEFAULT).nic());
        assertEquals("sim:rw-cp", new SimCosts(SimConfig.DEFAULT.withStrategy("rw-cp")).nic());
    }

    @Test
    void fourDoublesOnePacketWorkedByHand() {
        // 4 doubles 16 B apart, count 1: one 32 B packet (1,280 ps on the link). The specialized handler, each
        // side: 26 + 4 blocks x 8 + 1 division x 20 = 78 cycles and 4 NIC memory accesses of 1 cycle: 82,000 ps,
        // its 4 DMA commands of 8 B issued at a quarter of it each; one 32 B request (8 + 24 B) takes 507.9 ps
        // of a 315 B slot of PCIe, then 2,000 ps.
        MessageType four = new MessageType(
                "{\"vector\": {\"count\": 4, \"blocklength\": 1, \"stride\": 2, \"of\": \"double\"}}", 32, false);
        SimCosts sim = new SimCosts(SimConfig.DEFAULT.withStrategy("specialized"));
        // sender: the last read, issued at 82,000, is in at 84,508; the packet leaves then, 84,508 ps late
        assertEquals(85, sim.sendNicNs(four, 1));
        // receiver: arrived 101,280, matched 201,280, header handler to 227,280, payload handler to 309,280, its
        // last write done at 311,788, the completion handler to 337,788: 236,508 ps after 100,000 + 1,280
        assertEquals(237, sim.recvNicNs(four, 1));
        assertEquals(237, new SimCosts(SimConfig.DEFAULT).recvNicNs(four, 1), "auto chooses specialized here");
    }

    @Test
    void theNicTimesAreTheTimelinesBeyondTheLink() {
        SimCosts sim = new SimCosts(SimConfig.DEFAULT);
        TimedMessage m = TimedMessage.of(DatatypeJson.parse(COLUMN.json()).commit(), 2, SimConfig.DEFAULT);
        long send = Math.round((m.sendTime().lastBytePs() - LINK_PS) / 1000.0);
        long recv = Math.round((m.receive().timing.completionPs() - 100_000 - LINK_PS) / 1000.0);
        assertEquals(send, sim.sendNicNs(COLUMN, 2));
        assertEquals(recv, sim.recvNicNs(COLUMN, 2));
        assertTrue(send > 0, "the first packet waits for its handler's DMA reads: " + send);
        assertTrue(recv > 0, "the completion handler runs after the last byte: " + recv);
        assertEquals(0, sim.sendCpuNs(COLUMN, 2));
        assertEquals(0, sim.recvCpuNs(COLUMN, 2));
    }

    @Test
    void aTimelineIsSimulatedOncePerSettings() {
        CostCache cache = new CostCache();
        SimCosts paper = new SimCosts(SimConfig.DEFAULT, cache);
        SimCosts again = new SimCosts(SimConfig.DEFAULT, cache);
        SimCosts banked = new SimCosts(SimConfig.DEFAULT.withTiming(TimingConfig.BANKED), cache);
        long recv = paper.recvNicNs(COLUMN, 2);
        assertEquals(recv, again.recvNicNs(COLUMN, 2));
        assertEquals(1, cache.size(), "the same configuration, type and count: one timeline");
        assertTrue(banked.recvNicNs(COLUMN, 2) > recv, "multi-cycle banked NIC memory makes handlers slower");
        assertEquals(2, cache.size());
    }

    @Test
    void withoutNicMemoryTheCpuPacksAndUnpacksAsTheHostModelSays() {
        SimCosts sim = new SimCosts(SimConfig.DEFAULT.withNicMemory(0));
        HostCosts host = HostCosts.modelled(TimingConfig.PAPER);
        assertEquals(host.sendCpuNs(COLUMN, 2), sim.sendCpuNs(COLUMN, 2));
        assertEquals(host.recvCpuNs(COLUMN, 2), sim.recvCpuNs(COLUMN, 2));
        assertEquals(0, sim.sendNicNs(COLUMN, 2));
        assertEquals(0, sim.recvNicNs(COLUMN, 2));
    }

    @Test
    void contiguousTypesCostNothing() {
        SimCosts sim = new SimCosts(SimConfig.DEFAULT);
        assertEquals(0, sim.sendNicNs(DOUBLES, 4096));
        assertEquals(0, sim.recvNicNs(DOUBLES, 4096));
    }
}
