package org.jspin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspin.bench.pack.PackCase;
import org.jspin.bench.pack.PackCases;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pack.PackSweep;
import org.jspin.bench.pack.SharedDir;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.examples.halo2d.Halo2d;
import org.jspin.mpi.MpiOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin demo}, the main job: the halo exchange a user would write (examples' halo2d) as 4
 * processes on the host backend and on the simulated sPIN NIC, side by side, ending with the
 * program's time per iteration projected on both NICs at 4 and 64 nodes ({@link Projection});
 * {@code --in-jvm} runs it on in-JVM ranks instead (one backend), checked against a serial run; with
 * {@code --layouts}, also every application datatype of shared/layouts with its layout and pack/unpack
 * speed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs the 2D halo exchange (halo2d) as 4 processes on the host backend and on the simulated"
                + " sPIN NIC (sim), prints the two side by side and ends with what offload would buy: the program's"
                + " time per iteration projected on host and sPIN NICs, at 4 nodes (a trace of the host's run) and"
                + " at --nodes (a trace on that many thread ranks).",
                "--in-jvm runs it on in-JVM ranks on one backend instead; --layouts adds the application datatypes"
                        + " table (measured on this machine)."})
final class DemoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-n", "--ranks"}, defaultValue = "4", description = "in-JVM ranks (default: ${DEFAULT-VALUE})")
    private int ranks;

    @Option(names = "--size", defaultValue = "1024", description = "interior points per side (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--iterations", defaultValue = "200", description = "Jacobi sweeps (default: ${DEFAULT-VALUE})")
    private int iterations;

    @Option(names = "--backend", defaultValue = "host", description = "NIC backend with --in-jvm (default:"
            + " ${DEFAULT-VALUE})")
    private String backend;

    @Option(names = "--in-jvm", description = "ranks as threads of this JVM, one backend (the demo before the sim)")
    private boolean inJvm;

    @Option(names = "--strategies", split = ",", defaultValue = "auto", description = "sim strategies to compare"
            + " (default: ${DEFAULT-VALUE})")
    private List<String> strategies;

    @Option(names = "--nodes", defaultValue = "64", description = "nodes of the second projection, traced on as"
            + " many thread ranks of this JVM (default: ${DEFAULT-VALUE})")
    private int nodes;

    @Option(names = "--summary", description = "log each rank's meters when it finishes")
    private boolean summary;

    @Option(names = "--layouts", description = "also build every shared/layouts datatype and time pack/unpack")
    private boolean layouts;

    @Option(names = "--samples", defaultValue = "3", description = "samples per layout (default: ${DEFAULT-VALUE})")
    private int samples;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!inJvm) {
            out.printf("jspin demo: halo2d, %d x %d grid, %d iterations, %d processes: the host backend, then the"
                    + " simulated sPIN NIC%n", size, size, iterations, ranks);
            if (nodes < 1) {
                throw new MpiException(ErrorClass.ERR_ARG, "--nodes " + nodes + " must be at least 1");
            }
            Comparison c = new Comparison("halo2d", ranks, size, iterations, strategies);
            List<Comparison.Row> rows = c.run(out);
            List<Projection.Point> points = c.project(nodes, out);
            Comparison.print(rows, out);
            boolean correct = rows.stream().allMatch(r -> r.get("max_abs_error") == 0.0);
            out.println(correct ? "Every run is bit-identical to the serial run."
                    : "jspin demo: a distributed result differs from the serial run");
            out.print(c.headline(points));
            out.flush();
            if (layouts) {
                layoutTable(out);
            }
            return correct ? 0 : 1;
        }
        MpiOptions options = MpiOptions.fromEnvironment().withBackend(backend);
        if (summary) {
            options = options.withSummary(true);
        }
        Halo2d.Result r = Halo2d.runLocal(ranks, options, new Halo2d.Params(size, iterations, true));
        out.print(r.report(options.backend(), options.fabric()));
        out.flush();
        boolean correct = r.maxAbsError() == 0.0;
        if (!correct) {
            out.println("jspin demo: the distributed result differs from the serial run");
        }
        if (layouts) {
            layoutTable(out);
        }
        return correct ? 0 : 1;
    }

    private void layoutTable(PrintWriter out) {
        Path dir = SharedDir.layouts();
        List<PackCase> cases = PackCases.layouts(dir);
        out.printf("jspin demo: %d application datatypes from %s (DDTBench), count 1 each%n", cases.size(), dir);
        out.printf("%-28s %12s %12s %9s %10s %10s %10s%n", "name", "size B", "extent B", "regions", "pack GB/s",
                "unpack GB/s", "copy GB/s");
        PackSweep.Options options = PackSweep.Options.defaults().withSamples(samples);
        for (PackCase c : cases) {
            PackResult r = PackSweep.measure(c, options);
            Datatype t = c.type();
            out.printf("%-28s %12d %12d %9d %10.2f %10.2f %10.2f%n", c.name(), t.size(), t.extent(),
                    regions(t, c.count()), r.packGbps(), r.unpackGbps(), r.copyGbps());
            out.flush();
        }
    }

    private static long regions(Datatype t, long count) {
        RegionIterator it = t.regions(count);
        long n = 0;
        while (it.advance()) {
            n++;
        }
        return n;
    }
}
