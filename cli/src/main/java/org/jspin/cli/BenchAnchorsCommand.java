package org.jspin.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.jspin.bench.NameFilter;
import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.AnchorResults;
import org.jspin.bench.anchors.Versus;
import org.jspin.bench.pack.SharedDir;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jspin bench anchors}: jspin's Netty ping-pong beside MPICH's and Open MPI's, round by round. */
@Command(name = "anchors", mixinStandardHelpOptions = true,
        description = {"jspin's ping-pong over Netty beside Open MPI's and MPICH's over TCP (the anchors' run.sh"
                + " pingpong, ranks bound), in interleaved rounds: each round runs the anchors, then 'bench pingpong"
                + " --fabric netty' once per --bind-to. Prints per case the median of each figure over the rounds and"
                + " the median of the ratios taken within each round (above 1: jspin ahead), the 4 MiB vector over the"
                + " contiguous 4 MiB, the latency tails, and the per-round ratios to Open MPI; measured on this"
                + " machine.",
                "The anchors build their programs with mpicc.openmpi and mpicc.mpich (Debian's libopenmpi-dev and"
                        + " libmpich-dev); ./jspin installs them for this command."})
final class BenchAnchorsCommand implements Callable<Integer> {
    /** Longest one run of the anchors may take (its two jobs have 150 s each). */
    private static final long ANCHORS_TIMEOUT_MINUTES = 10;

    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "3", description = "interleaved rounds (default: ${DEFAULT-VALUE})")
    private int rounds;

    @Option(names = "--bind-to", split = ",", defaultValue = "core,none", converter = BindingConverter.class,
            description = "jspin's bindings, each measured every round (default: ${DEFAULT-VALUE})")
    private List<Binding> bindings;

    @Option(names = "--scale", defaultValue = "1", description = "multiplies jspin's round trips per case (default: ${DEFAULT-VALUE})")
    private double scale;

    @Option(names = "--filter", description = "only jspin's cases whose name matches (substring or regex)")
    private String filter;

    @Option(names = "--anchors", paramLabel = "RUN_SH",
            description = "the anchors' script (default: anchors/run.sh of the shared directory)")
    private Path script;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (rounds < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "--rounds must be at least 1, got " + rounds);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--scale must be a positive number, got " + scale);
        }
        List<Binding> order = bindings.stream().distinct().toList();
        Path runSh = script != null ? script : SharedDir.locate().resolve("anchors").resolve("run.sh");
        if (!Files.isRegularFile(runSh)) {
            throw new MpiException(ErrorClass.ERR_ARG, "no anchors' script at " + runSh);
        }
        NameFilter cases = NameFilter.of(filter);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Versus versus = new Versus(order.stream().map(BenchAnchorsCommand::name).toList());
        for (int r = 1; r <= rounds; r++) {
            err.printf("jspin bench anchors: round %d of %d: the anchors%n", r, rounds);
            AnchorResults anchors = anchors(runSh);
            Map<String, List<PingPongResult>> ours = new LinkedHashMap<>();
            for (Binding b : order) {
                err.printf("jspin bench anchors: round %d of %d: jspin, %s%n", r, rounds, name(b));
                ours.put(name(b), NettyPingPong.run("host", scale, filter, null, null, b, System.err));
            }
            versus.add(anchors, ours);
        }
        print(out, versus, cases);
        return 0;
    }

    private static String name(Binding b) {
        return b == Binding.NONE ? "unbound" : "bound";
    }

    /**
     * Runs the anchors' ping-pong once.
     *
     * @throws MpiException ERR_OTHER if it prints no figures for Open MPI or MPICH, with its exit code and
     *                      its last lines, or if it outlives {@link #ANCHORS_TIMEOUT_MINUTES}
     */
    static AnchorResults anchors(Path runSh) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", runSh.toString(), "pingpong").redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the process was stopped; what was read stands
            }
        });
        if (!p.waitFor(ANCHORS_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " pingpong ran longer than " + ANCHORS_TIMEOUT_MINUTES
                    + " minutes and was stopped");
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        List<String> printed;
        synchronized (lines) {
            printed = List.copyOf(lines);
        }
        AnchorResults results = AnchorResults.parse(printed);
        List<String> missing = Versus.LABELS.stream().filter(l -> !results.labels().contains(l)).toList();
        if (!missing.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " pingpong printed no figures for " + missing
                    + " (exit code " + p.exitValue() + "); it builds its programs with mpicc.openmpi and mpicc.mpich,"
                    + " which need Debian's libopenmpi-dev and libmpich-dev. Its last lines:"
                    + String.join("\n  ", tail(printed)));
        }
        return results;
    }

    private static List<String> tail(List<String> lines) {
        List<String> t = new ArrayList<>();
        t.add("");
        t.addAll(lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        if (lines.isEmpty()) {
            t.add("(nothing)");
        }
        return t;
    }

    /** The report: the table, then the vector, the tails and the per-round ratios. */
    static void print(PrintWriter out, Versus v, NameFilter cases) {
        List<String> bs = v.bindings();
        out.printf("jspin bench anchors: %d interleaved round(s) measured on this machine; jspin's ranks %s, the"
                + " anchors' bound; latency one-way us at p50, the rest GB/s at p50; medians over the rounds; ratios"
                + " taken per round, then their median (above 1: jspin ahead)%n%n", v.rounds(), String.join(" and ", bs));
        StringBuilder head = new StringBuilder("| case | unit |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (String b : bs) {
            head.append(" jspin ").append(b).append(" |");
            rule.append("--:|");
        }
        head.append(" Open MPI | MPICH |");
        rule.append("--:|--:|");
        for (String label : Versus.LABELS) {
            for (String b : bs) {
                head.append(" vs ").append(display(label)).append(' ').append(b).append(" |");
                rule.append("--:|");
            }
        }
        out.println(head);
        out.println(rule);
        for (Versus.Row row : v.rows()) {
            if (!cases.test(row.c().jspin())) {
                continue;
            }
            StringBuilder line = new StringBuilder("| ").append(row.c().jspin()).append(" | ")
                    .append(row.c().latency() ? "us" : "GB/s").append(" |");
            bs.forEach(b -> line.append(' ').append(fmt(row.jspin().get(b))).append(" |"));
            Versus.LABELS.forEach(l -> line.append(' ').append(fmt(row.theirs().get(l))).append(" |"));
            Versus.LABELS.forEach(l -> bs.forEach(b -> line.append(' ').append(fmt(row.ratio().get(l).get(b)))
                    .append(" |")));
            out.println(line);
        }
        out.println();
        for (String b : bs) {
            List<Double> vc = v.vectorOverContiguous(b);
            if (!vc.isEmpty()) {
                out.printf("4 MiB vector / contiguous 4 MiB, %s, per round: %s; median %s%n", b, list(vc),
                        fmt(Versus.median(vc)));
            }
        }
        for (String b : bs) {
            Versus.Tails t = v.tails(b);
            if (t.of() > 0) {
                out.printf("latency p99 > %.0f x p50, %s: %d of %d (largest %.1f)%n", Versus.TAIL_LIMIT, b, t.above(),
                        t.of(), t.worst());
            }
        }
        out.printf("%nper-round ratios to Open MPI (%s):%n", String.join(" ; ", bs));
        for (AnchorCase c : AnchorCase.PINGPONG) {
            if (!cases.test(c.jspin())) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (String b : bs) {
                parts.add(list(v.ratios(c, AnchorCase.OPEN_MPI, b)));
            }
            out.printf("  %s: %s%n", c.jspin(), String.join(" ; ", parts));
        }
        out.printf("%nOpen MPI per round:%n");
        for (AnchorCase c : AnchorCase.PINGPONG) {
            if (cases.test(c.jspin())) {
                out.printf("  %s (%s): %s%n", c.jspin(), c.anchor(), list(v.theirs(c, AnchorCase.OPEN_MPI)));
            }
        }
        out.flush();
    }

    private static String display(String label) {
        return label.equals(AnchorCase.OPEN_MPI) ? "Open MPI" : label.equals(AnchorCase.MPICH) ? "MPICH" : label;
    }

    private static String list(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.join(" ", xs.stream().map(BenchAnchorsCommand::fmt).toList());
    }

    private static String fmt(Double x) {
        return x == null || Double.isNaN(x) ? "-" : String.format("%.2f", x);
    }
}
