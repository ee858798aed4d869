package org.jspin.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jspin.bench.pingpong.CorePairProbe;
import org.jspin.bench.pingpong.CoreSplit;
import org.jspin.bench.pingpong.CoreStates;
import org.jspin.bench.pingpong.PingPongResult;

/** How {@code jspin bench pingpong} and {@code jspin bench tcpfloor} print their results: a table, or JSON. */
final class PingPongOutput {
    private PingPongOutput() {
    }

    /** The table's column heads. */
    static void header(PrintWriter out) {
        out.printf("%-32s %10s %8s %10s %10s %10s %10s %10s %10s %7s %10s %10s %11s%n", "case", "bytes", "rounds",
                "p50 us", "p90 us", "p99 us", "GB/s p50", "pack GB/s", "unpk GB/s", "near %", "p50 near", "p50 far",
                "floor us");
        out.flush();
    }

    /** The results as table rows, or as one JSON array whose objects name {@code backend} and {@code fabric}. */
    static void results(PrintWriter out, List<PingPongResult> results, boolean json, String backend, String fabric) {
        if (json) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            for (PingPongResult r : results) {
                ObjectNode o = a.addObject();
                o.put("case", r.name());
                o.put("backend", backend);
                o.put("fabric", fabric);
                o.put("bytes", r.bytes());
                o.put("rounds", r.iterations());
                o.put("p50_us", r.p50Micros());
                o.put("p90_us", r.p90Micros());
                o.put("p99_us", r.p99Micros());
                o.put("gbps_p50", r.gbps());
                o.put("pack_gbps", r.packGbps());
                o.put("unpack_gbps", r.unpackGbps());
                if (r.floorMicros() > 0) {
                    o.put("floor_us", r.floorMicros());
                }
                CoreSplit c = r.cores();
                if (c.probed()) {
                    o.put("near_share", c.nearShare());
                    o.put("p50_near_us", c.p50NearMicros());
                    o.put("p50_far_us", c.p50FarMicros());
                    o.put("probe_near_ns", c.probeNearNanos());
                    o.put("probe_far_ns", c.probeFarNanos());
                }
            }
            out.println(a);
        } else {
            for (PingPongResult r : results) {
                CoreSplit c = r.cores();
                out.printf("%-32s %10d %8d %10.2f %10.2f %10.2f %10.3f %10s %10s %7s %10s %10s %11s%n", r.name(),
                        r.bytes(), r.iterations(), r.p50Micros(), r.p90Micros(), r.p99Micros(), r.gbps(),
                        rate(r.packGbps()), rate(r.unpackGbps()),
                        c.probed() ? String.format(Locale.ROOT, "%.0f", 100 * c.nearShare()) : "-",
                        micros(c.p50NearMicros()), micros(c.p50FarMicros()), micros(r.floorMicros()));
            }
            probes(out, results);
            if (results.stream().anyMatch(r -> r.floorMicros() > 0)) {
                out.printf("floor us: right after each contiguous ping-pong, the two rank threads take turns copying"
                        + " the message from the other's buffer into their own, handing the turn over through one"
                        + " atomic: a ping-pong by copies alone, which no in-JVM fabric can beat; half its median round"
                        + " trip%n");
            }
        }
        out.flush();
    }

    /**
     * The probes behind the near and far columns: their medians over the cases, so that a reader
     * sees which state "near" was in a run that only saw one.
     */
    private static void probes(PrintWriter out, List<PingPongResult> results) {
        double[] near = results.stream().mapToDouble(r -> r.cores().probeNearNanos()).filter(v -> v > 0).sorted()
                .toArray();
        double[] far = results.stream().mapToDouble(r -> r.cores().probeFarNanos()).filter(v -> v > 0).sorted()
                .toArray();
        if (near.length == 0 && far.length == 0) {
            return;
        }
        out.printf("near/far: round trips after a cross-core probe (a cache line bounced %d times between the ranks' cores"
                + " before each of %d blocks per case) under %.0f ns (-D%s), and after a slower one; probes' medians"
                + " over the cases: near %s, far %s%n", CorePairProbe.ITERATIONS, CoreStates.BLOCKS,
                CoreStates.nearBelowNanos(), CoreStates.NEAR_BELOW_PROPERTY, nanos(near), nanos(far));
    }

    private static String nanos(double[] sorted) {
        return sorted.length == 0 ? "none" : String.format(Locale.ROOT, "%.0f ns", sorted[sorted.length / 2]);
    }

    /** A per-state median or a floor, or "-" where no round trip was in that state or none was measured. */
    private static String micros(double us) {
        return us > 0 ? String.format(Locale.ROOT, "%.2f", us) : "-";
    }

    /** A packing rate, or "-" where nothing was packed. */
    private static String rate(double gbps) {
        return gbps > 0 ? String.format(Locale.ROOT, "%.2f", gbps) : "-";
    }
}
