package org.jspin.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jspin.bench.pingpong.PingPongResult;

/** How {@code jspin bench pingpong} and {@code jspin bench tcpfloor} print their results: a table, or JSON. */
final class PingPongOutput {
    private PingPongOutput() {
    }

    /** The table's column heads. */
    static void header(PrintWriter out) {
        out.printf("%-32s %10s %8s %10s %10s %10s %10s %10s %10s%n", "case", "bytes", "rounds", "p50 us", "p90 us",
                "p99 us", "GB/s p50", "pack GB/s", "unpk GB/s");
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
            }
            out.println(a);
        } else {
            for (PingPongResult r : results) {
                out.printf("%-32s %10d %8d %10.2f %10.2f %10.2f %10.3f %10s %10s%n", r.name(), r.bytes(),
                        r.iterations(), r.p50Micros(), r.p90Micros(), r.p99Micros(), r.gbps(), rate(r.packGbps()),
                        rate(r.unpackGbps()));
            }
        }
        out.flush();
    }

    /** A packing rate, or "-" where nothing was packed. */
    private static String rate(double gbps) {
        return gbps > 0 ? String.format(Locale.ROOT, "%.2f", gbps) : "-";
    }
}
