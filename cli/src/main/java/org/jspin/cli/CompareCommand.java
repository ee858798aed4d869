package org.jspin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.SimConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code jspin compare EXAMPLE}: the example on each backend, side by side. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Runs EXAMPLE as N processes on the host backend, then on the sim backend with each strategy,"
                + " and prints one table: wall time per iteration (measured), bytes moved, CPU bytes packed and"
                + " unpacked, estimated main-memory traffic, the simulated NIC time of the offloaded receives and the"
                + " speedup the simulation predicts for them against the host model. Ends with the headline: the"
                + " program's time per iteration projected on host and sPIN NICs (a LogGOPS replay, as jspin"
                + " project's), from a trace of the host's run and from one on --nodes thread ranks.",
                "--out DIR also writes the table and the projection as CSV and PNG bar charts."})
final class CompareCommand implements Callable<Integer> {
    /** The examples compare knows. */
    static final List<String> EXAMPLES = List.of("halo2d", "halo3d", "fft2d", "particles");

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXAMPLE", description = "halo2d, halo3d, fft2d or particles")
    private String example;

    @Option(names = {"-n", "--ranks"}, defaultValue = "4", description = "processes (default: ${DEFAULT-VALUE})")
    private int ranks;

    @Option(names = "--strategies", split = ",", defaultValue = "auto",
            description = "sim strategies, after the host (default: ${DEFAULT-VALUE})")
    private List<String> strategies;

    @Option(names = "--size", description = "interior points per side (default: the example's)")
    private Integer size;

    @Option(names = "--iterations", description = "iterations (default: the example's)")
    private Integer iterations;

    @Option(names = "--nodes", defaultValue = "64", description = "nodes of the second projection, traced on as"
            + " many thread ranks of this JVM (default: ${DEFAULT-VALUE})")
    private int nodes;

    @Option(names = "--out", paramLabel = "DIR", description = "also write CSV and PNG here")
    private Path out;

    @Override
    public Integer call() {
        if (!EXAMPLES.contains(example)) {
            throw new MpiException(ErrorClass.ERR_ARG, "no example named '" + example + "'; known: " + EXAMPLES);
        }
        for (String s : strategies) {
            SimConfig.DEFAULT.withStrategy(s); // refuses an unknown name before anything runs
        }
        if (nodes < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "--nodes " + nodes + " must be at least 1");
        }
        PrintWriter w = spec.commandLine().getOut();
        Comparison c = new Comparison(example, ranks, size, iterations, strategies);
        List<Comparison.Row> rows = c.run(w);
        List<Projection.Point> points = c.project(nodes, w);
        Comparison.print(rows, w);
        w.print(c.headline(points));
        if (out != null) {
            List<Path> files = new ArrayList<>(Comparison.write(rows, points, out, example));
            w.println("wrote " + files);
        }
        w.flush();
        return rows.stream().allMatch(r -> r.get("max_abs_error") == 0.0) ? 0 : 1;
    }
}
