package org.jspin.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.IterationTrace;
import org.jspin.nic.sim.experiment.Table;
import org.jspin.report.ReportWriter;
import org.jspin.bootstrap.launch.RankLauncher;

/**
 * One example run as N processes on each backend in turn (host, then sim with each strategy), its
 * {@code --json} report read back, and the figures set side by side: what {@code jspin compare} and
 * {@code jspin demo} print. Wall time is measured on this machine; the NIC time and the host model's
 * time of the same receives are simulated (the sim backend's meters). The host's run is traced, so
 * that the program's time per iteration can then be projected on both NICs ({@link Projection}).
 */
final class Comparison {
    /** One backend's run. */
    record Row(String name, JsonNode report) {
        double get(String key) {
            JsonNode v = report.get(key);
            return v == null || v.isNull() ? Double.NaN : v.asDouble();
        }

        /**
         * @return Gbit/s of the bytes the simulated NIC scattered (those received less those the CPU unpacked)
         *         over its simulated time, summed over the receives (NaN on the host backend)
         */
        double nicGbps() {
            double nic = get("nic_ns_simulated");
            return nic > 0 ? (get("bytes_moved") - get("cpu_bytes_unpacked")) * 8 / nic : Double.NaN;
        }

        /** @return modelled host time over simulated NIC time of the offloaded receives (NaN on the host backend) */
        double predictedSpeedup() {
            double nic = get("nic_ns_simulated");
            return nic > 0 ? get("host_model_ns") / nic : Double.NaN;
        }
    }

    private final String example;
    private final int ranks;
    private final Integer size;
    private final Integer iterations;
    private final List<String> strategies;
    private final Projection projection;
    private Path trace;

    /**
     * @param example    the example's name ({@code halo2d})
     * @param size       its {@code --size}, or null for its default
     * @param iterations its {@code --iterations}, or null for its default
     * @param strategies the sim strategies to run after the host
     */
    Comparison(String example, int ranks, Integer size, Integer iterations, List<String> strategies) {
        this.example = example;
        this.ranks = ranks;
        this.size = size;
        this.iterations = iterations;
        this.strategies = List.copyOf(strategies);
        this.projection = new Projection(strategies);
    }

    /** Runs every backend, saying on {@code progress} which one runs; the host's run is traced. */
    List<Row> run(PrintWriter progress) {
        List<Row> rows = new ArrayList<>();
        int total = 1 + strategies.size();
        try {
            trace = Files.createTempDirectory("jspin-compare-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            rows.add(runOne("host", "host", Map.of("JSPIN_TRACE", trace.toString()), 1, total, progress));
            int i = 2;
            for (String s : strategies) {
                rows.add(runOne("sim/" + s, "sim", Map.of("JSPIN_SIM", "strategy=" + s), i++, total, progress));
            }
        } catch (RuntimeException e) {
            IterationTrace.delete(trace);
            trace = null;
            throw e;
        }
        return rows;
    }

    /**
     * Projects the program's time per iteration: from the trace of the host's run (removed afterwards),
     * then from a trace on {@code nodes} thread ranks (none when {@code nodes} is the run's ranks).
     */
    List<Projection.Point> project(int nodes, PrintWriter progress) {
        if (trace == null) {
            throw new IllegalStateException("project() before run()");
        }
        List<Projection.Point> points = new ArrayList<>();
        try {
            progress.printf("compare: projecting the host run's trace on host and sim NICs ...%n");
            progress.flush();
            points.add(projection.ofRun(trace, ranks));
        } finally {
            IterationTrace.delete(trace);
            trace = null;
        }
        if (nodes != ranks) {
            progress.printf("compare: tracing %s on %d thread ranks (at most %d iterations) and projecting ...%n",
                    example, nodes, Projection.THREAD_ITERATIONS);
            progress.flush();
            List<String> threadArgs = new ArrayList<>();
            if (size != null) {
                threadArgs.addAll(List.of("--size", size.toString()));
            }
            int n = Math.min(iterations == null ? Integer.MAX_VALUE : iterations, Projection.THREAD_ITERATIONS);
            threadArgs.addAll(List.of("--iterations", Integer.toString(n)));
            points.add(projection.onThreads(example, threadArgs, nodes));
        }
        return points;
    }

    /** @return the projection's headline for {@code points} */
    String headline(List<Projection.Point> points) {
        return projection.headline(points);
    }

    private Row runOne(String name, String backend, Map<String, String> env, int i, int total, PrintWriter progress) {
        progress.printf("compare: [%d/%d] %s on %d processes, backend %s ...%n", i, total, example, ranks, name);
        progress.flush();
        List<String> program = new ArrayList<>();
        program.add(example);
        if (size != null) {
            program.addAll(List.of("--size", size.toString()));
        }
        if (iterations != null) {
            program.addAll(List.of("--iterations", iterations.toString()));
        }
        program.add("--json");
        Map<String, String> e = new HashMap<>(env);
        e.put("JSPIN_BACKEND", backend);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RankLauncher.Result r;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream x = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            r = RankJob.run(ranks, program, e, Duration.ofMinutes(5), o, x);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        if (r.exitCode() != 0) {
            throw new MpiException(ErrorClass.ERR_OTHER, name + " run failed with exit code " + r.exitCode() + ":\n"
                    + text + err.toString(StandardCharsets.UTF_8));
        }
        for (String line : text.lines().toList()) {
            String json = line.startsWith("[0] ") ? line.substring(4) : line;
            if (json.startsWith("{")) {
                try {
                    return new Row(name, DatatypeJson.mapper().readTree(json));
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            }
        }
        throw new MpiException(ErrorClass.ERR_OTHER, name + " printed no report:\n" + text);
    }

    /** @return the rows as a table: measured and simulated columns named so */
    static Table table(List<Row> rows) {
        Table t = Table.of(List.of("backend", "us_per_iteration_measured", "bytes_moved", "cpu_bytes_packed",
                "cpu_bytes_unpacked", "memory_traffic_bytes", "nic_ms_simulated", "nic_gbps_simulated",
                "receives_offloaded", "predicted_speedup_simulated"), Set.of("us_per_iteration_measured"));
        for (Row r : rows) {
            t.add(r.name(), r.get("us_per_iteration_measured"), r.get("bytes_moved"), r.get("cpu_bytes_packed"),
                    r.get("cpu_bytes_unpacked"), r.get("memory_traffic_bytes"), r.get("nic_ns_simulated") / 1e6,
                    r.nicGbps(), r.get("receives_offloaded"), r.predictedSpeedup());
        }
        return t;
    }

    /** Prints the table, side by side, with what is measured and what simulated said in the header. */
    static void print(List<Row> rows, PrintWriter out) {
        out.printf("%-14s %16s %12s %12s %12s %14s %12s %10s %9s %9s%n", "backend", "us/iter", "bytes moved",
                "CPU packed", "CPU unpacked", "memory traffic", "NIC time", "NIC", "offloaded", "speedup");
        out.printf("%-14s %16s %12s %12s %12s %14s %12s %10s %9s %9s%n", "", "(measured)", "(B)", "(B)", "(B)",
                "(B, est.)", "(ms, sim.)", "(Gb/s sim)", "(recvs)", "(sim.)");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-14s %16.1f %,12.0f %,12.0f %,12.0f %,14.0f %12s %10s %9s %9s%n", r.name(),
                    r.get("us_per_iteration_measured"), r.get("bytes_moved"), r.get("cpu_bytes_packed"),
                    r.get("cpu_bytes_unpacked"), r.get("memory_traffic_bytes"),
                    r.name().equals("host") ? "-" : String.format(Locale.ROOT, "%.3f", r.get("nic_ns_simulated") / 1e6),
                    r.name().equals("host") ? "-" : String.format(Locale.ROOT, "%.1f", r.nicGbps()),
                    r.name().equals("host") ? "-" : String.format(Locale.ROOT, "%.0f", r.get("receives_offloaded")),
                    r.name().equals("host") ? "-" : String.format(Locale.ROOT, "%.1fx", r.predictedSpeedup()));
        }
        out.flush();
    }

    /**
     * Writes the table as CSV and PNG bar charts of the memory traffic and the measured time, and the
     * projection as CSV and a PNG bar chart of the projected time per iteration.
     */
    static List<Path> write(List<Row> rows, List<Projection.Point> points, Path dir, String example) {
        Table t = table(rows);
        Table p = Projection.table(points);
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            Path csv = dir.resolve("compare-" + example + ".csv");
            Files.writeString(csv, ReportWriter.csv(t));
            files.add(csv);
            Path projected = dir.resolve("compare-" + example + "-projected.csv");
            Files.writeString(projected, ReportWriter.csv(p));
            files.add(projected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        files.add(ReportWriter.chart(p, ChartSpec.bars("compare-" + example + "-projected", example
                + ": projected time per iteration by nodes and NIC (simulated replay, compute measured)", "nodes",
                "runtime_us_measured", "nic", "nodes", "time per iteration (µs, projected)", false), "paper", dir));
        files.add(ReportWriter.chart(t, ChartSpec.bars("compare-" + example + "-traffic", example
                + ": main-memory traffic by backend (estimated)", "backend", "memory_traffic_bytes", null, "backend",
                "main-memory traffic (bytes)", false), "paper", dir));
        files.add(ReportWriter.chart(t, ChartSpec.bars("compare-" + example + "-time", example
                + ": wall time per iteration, measured (sim/* includes simulating its NIC)", "backend",
                "us_per_iteration_measured", null, "backend", "wall time per iteration (µs)", false), "paper", dir));
        return files;
    }
}
