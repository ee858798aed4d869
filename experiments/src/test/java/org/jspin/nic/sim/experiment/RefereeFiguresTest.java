package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The referee's sweeps, on a quick run of the paper preset. */
class RefereeFiguresTest {
    @Test
    void memoryVariesLatencyBanksAndBandwidthOneAtATime() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new RefereeFigures(s.context).refereeMemory().table();
            assertEquals(Set.of("memory-latency (cycles)", "memory-banks", "memory-bandwidth (GiB/s)"),
                    t.rows().stream().map(r -> r.get(0)).collect(Collectors.toSet()));
            assertEquals(2 * 2 * 3, t.rows().size());
            List<List<Object>> latency = t.where("strategy", "specialized").stream()
                    .filter(r -> r.get(0).equals("memory-latency (cycles)")).toList();
            assertTrue(t.number(latency.get(0), "gbps") >= t.number(latency.get(1), "gbps"), "slower memory, no faster");
            assertTrue(s.onlyVerdict().claim().startsWith("Referee 1."));
        }
    }

    @Test
    void theHostOnOneAndManyThreadsIsMeasuredAndTheOffloadSimulated() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new RefereeFigures(s.context).refereeHostThreads().table();
            assertEquals(List.of("host (measured 1 thread)", "host (measured 2 threads)", "offload (paper preset)",
                    "offload (banked preset)"), t.rows().stream().map(r -> r.get(1)).toList());
            assertTrue(Double.isNaN(t.number(t.rows().get(0), "gbps")) && t.number(t.rows().get(0), "gbps_measured") > 0);
            assertTrue(Double.isNaN(t.number(t.rows().get(2), "gbps_measured")) && t.number(t.rows().get(2), "gbps") > 0);
            assertTrue(s.onlyVerdict().evidence().contains("2 threads"));
        }
    }

    @Test
    void iovecGainsWithMoreEntriesOnTheNic() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new RefereeFigures(s.context).refereeIovec().table();
            assertEquals(List.of(32, 128), t.rows().stream().map(r -> r.get(0)).toList());
            assertTrue(t.number(t.rows().get(1), "gbps") >= t.number(t.rows().get(0), "gbps"));
            assertTrue(s.onlyVerdict().evidence().startsWith("v = 32, 500 ns fetch"));
        }
    }

    @Test
    void settleComparesTheBankedOffloadWithTheHostAndItsTraffic() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new RefereeFigures(s.context).settle().table();
            assertEquals(5, t.rows().size());
            double nicTraffic = t.number(t.rows().get(0), "traffic_bytes");
            double hostTraffic = t.number(t.rows().get(2), "traffic_bytes");
            assertEquals(4 << 20, nicTraffic);
            assertTrue(hostTraffic >= 2 * nicTraffic);
            assertEquals("the offload claim holds here", s.onlyVerdict().verdict());
        }
    }
}
