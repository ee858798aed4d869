package org.jspin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import org.jspin.bench.NameFilter;
import org.jspin.bench.pack.PackCase;
import org.jspin.bench.pack.PackCases;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pack.PackSweep;
import org.jspin.bench.pack.ResultTable;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.kernel.Kernels;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code jspin bench pack}: pack and unpack throughput against a contiguous copy, per case. */
@Command(name = "pack", mixinStandardHelpOptions = true,
        description = {"Pack/unpack throughput of the datatype engine, in GB/s (1e9 B/s) of payload, next to a",
                "contiguous copy of the same payload measured in the same run: the vector sweep of ANCHORS.md,",
                "the irregular indexed type, struct {int, double[3]}, the faces of a 128^3 cube, every layout."})
final class BenchPackCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "print one JSON array instead of a table")
    private boolean json;

    @Option(names = "--samples", defaultValue = "7", description = "samples per case (default: ${DEFAULT-VALUE})")
    private int samples;

    @Option(names = "--filter", description = "only cases whose name matches (substring or regex)")
    private String filter;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PackSweep.Options options = PackSweep.Options.defaults().withSamples(samples);
        if (filter != null) {
            options = options.withFilter(filter);
        }
        List<PackCase> cases = NameFilter.of(filter).select(PackCases.all(), PackCase::name);
        List<PackResult> results = new ArrayList<>();
        if (!json) {
            out.println("# median of " + samples + " samples per case, measured on this machine; SIMD kernels: "
                    + (Kernels.vectorized() ? "on" : "off"));
            out.println(ResultTable.header());
            out.flush();
        }
        PackSweep.run(cases, options, r -> {
            results.add(r);
            if (!json) {
                out.println(ResultTable.row(r));
                out.flush();
            }
        });
        if (json) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            for (PackResult r : results) {
                a.addObject().put("name", r.name()).put("block_bytes", r.blockBytes())
                        .put("pack_gbps", r.packGbps()).put("unpack_gbps", r.unpackGbps())
                        .put("copy_gbps", r.copyGbps());
            }
            out.println(DatatypeJson.mapper().valueToTree(a).toString());
            out.flush();
        }
        return 0;
    }
}
