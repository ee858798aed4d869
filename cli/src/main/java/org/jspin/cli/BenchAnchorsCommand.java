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

import org.jspin.bench.Stats;
import org.jspin.bench.NameFilter;
import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.AnchorResults;
import org.jspin.bench.anchors.ByState;
import org.jspin.bench.anchors.FloorRounds;
import org.jspin.bench.anchors.PackVersus;
import org.jspin.bench.anchors.Versus;
import org.jspin.bench.pack.BenchJvm;
import org.jspin.bench.pack.PackCases;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pack.SharedDir;
import org.jspin.bench.pingpong.CorePairProbe;
import org.jspin.bench.pingpong.CoreStates;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.transport.netty.NettyFabricProvider;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jspin bench anchors}: jspin beside MPICH and Open MPI, round by round: the ping-pong over
 * Netty against theirs over TCP, over shared memory against their defaults on one host, or the pack
 * sweep against their {@code MPI_Pack}.
 */
@Command(name = "anchors", mixinStandardHelpOptions = true,
        description = {"jspin beside Open MPI and MPICH (the anchors' run.sh) in interleaved rounds, measured on this"
                + " machine.",
                "pingpong (the default): each round runs the anchors' ping-pong over TCP (ranks bound), then 'bench"
                        + " pingpong --fabric netty' once per --bind-to. Prints per case the median of each figure over"
                        + " the rounds and the median of the ratios taken within each round (above 1: jspin ahead), the"
                        + " 4 MiB vector over the contiguous 4 MiB, the latency tails, and the per-round ratios to Open"
                        + " MPI. With jspin bound, each round also runs 'bench tcpfloor' bound: the floor's vector over"
                        + " its contiguous message, and jspin over the floor per case.",
                "--fabric shm: each round runs the anchors' ping-pong with each MPI's default on one host (run.sh"
                        + " pingpong-shm: shared memory), then 'bench pingpong --fabric shm'; no floor.",
                "pack: each round runs the anchors' MPI_Pack/MPI_Unpack sweep, then 'bench pack' on the vector sweep in"
                        + " a fresh JVM. Prints per block size each one's rate as a fraction of its own contiguous copy,"
                        + " jspin's over the better MPI's (per round, then the median), and how far jspin's rates and"
                        + " fractions spread over the rounds.",
                "The anchors build their programs with mpicc.openmpi and mpicc.mpich (Debian's libopenmpi-dev and"
                        + " libmpich-dev); ./jspin installs them for this command."})
final class BenchAnchorsCommand implements Callable<Integer> {
    private static final String SHM = "shm";
    /** The labels of the anchors' shared-memory ping-pong (run.sh pingpong-shm). */
    private static final String OPEN_MPI_SHM = "ompi-shm";
    private static final String MPICH_SHM = "mpich-shm";
    /** Longest one run of the anchors may take (its two jobs have 150 s each). */
    private static final long ANCHORS_TIMEOUT_MINUTES = 10;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "pingpong", paramLabel = "WHAT",
            description = "pingpong or pack (default: ${DEFAULT-VALUE})")
    private String what;

    @Option(names = "--rounds", defaultValue = "3", description = "interleaved rounds (default: ${DEFAULT-VALUE})")
    private int rounds;

    @Option(names = "--bind-to", split = ",", defaultValue = "core,none", converter = BindingConverter.class,
            description = "jspin's bindings, each measured every round (default: ${DEFAULT-VALUE})")
    private List<Binding> bindings;

    @Option(names = "--scale", defaultValue = "1",
            description = "multiplies jspin's round trips per case (default: ${DEFAULT-VALUE})")
    private double scale;

    @Option(names = "--filter", description = "only jspin's cases whose name matches (substring or regex)")
    private String filter;

    @Option(names = "--fabric", defaultValue = "netty",
            description = "pingpong: netty (default; the anchors over TCP) or shm (the anchors' defaults on one host,"
                    + " shared memory: run.sh pingpong-shm)")
    private String fabric;

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
        if (!fabric.equals(NettyFabricProvider.NAME) && !fabric.equals(SHM)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--fabric must be netty or shm, got '" + fabric + "'");
        }
        if (!what.equals("pingpong") && !what.equals("pack")) {
            throw new MpiException(ErrorClass.ERR_ARG, "what to compare must be pingpong or pack, got '" + what + "'");
        }
        Path runSh = script != null ? script : SharedDir.locate().resolve("anchors").resolve("run.sh");
        if (!Files.isRegularFile(runSh)) {
            throw new MpiException(ErrorClass.ERR_ARG, "no anchors' script at " + runSh);
        }
        NameFilter cases = NameFilter.of(filter);
        List<String> known = what.equals("pack")
                ? PackCases.builtInNames().stream().filter(PackVersus::compares).toList()
                : PingPongCase.standard(1).stream().map(PingPongCase::name).toList();
        if (known.stream().noneMatch(cases)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--filter '" + filter + "' matches none of the cases " + what
                    + " compares: " + known);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (what.equals("pack")) {
            PackVersus versus = new PackVersus();
            for (int r = 1; r <= rounds; r++) {
                err.printf("jspin bench anchors pack: round %d of %d: the anchors%n", r, rounds);
                AnchorResults anchors = anchors(runSh, "pack", PackVersus.IMPLS);
                err.printf("jspin bench anchors pack: round %d of %d: jspin%n", r, rounds);
                versus.add(anchors, packInFreshJvm(filter == null ? "vector_" : filter));
            }
            printPack(out, versus);
            return 0;
        }
        List<Binding> order = bindings.stream().distinct().toList();
        Versus versus = new Versus(order.stream().map(BenchAnchorsCommand::name).toList());
        ByState byState = new ByState();
        FloorRounds floors = new FloorRounds();
        for (int r = 1; r <= rounds; r++) {
            err.printf("jspin bench anchors: round %d of %d: the anchors%n", r, rounds);
            double before = probe(err);
            AnchorResults anchors = fabric.equals(SHM)
                    ? anchors(runSh, "pingpong-shm", List.of(OPEN_MPI_SHM, MPICH_SHM))
                            .relabeled(OPEN_MPI_SHM, AnchorCase.OPEN_MPI).relabeled(MPICH_SHM, AnchorCase.MPICH)
                    : anchors(runSh, "pingpong", Versus.LABELS);
            double after = probe(err);
            Map<String, List<PingPongResult>> ours = new LinkedHashMap<>();
            for (Binding b : order) {
                err.printf("jspin bench anchors: round %d of %d: jspin, %s%n", r, rounds, name(b));
                ours.put(name(b), ProcessPingPong.run(fabric, "host", scale, filter, null, null, b, System.err));
            }
            versus.add(anchors, ours);
            if (ours.containsKey(name(Binding.CORE))) {
                byState.add(anchors, before, after, ours.get(name(Binding.CORE)));
                if (fabric.equals(SHM)) {
                    continue; // the floor is a bare TCP socket's
                }
                err.printf("jspin bench anchors: round %d of %d: the floor (bench tcpfloor), bound%n", r, rounds);
                floors.add(BenchTcpFloorCommand.measure(scale, filter, Binding.CORE), ours.get(name(Binding.CORE)));
            }
        }
        print(out, versus, cases, fabric);
        printFloor(out, floors, cases);
        if (order.contains(Binding.CORE)) {
            printByState(out, byState, cases);
        }
        return 0;
    }

    /**
     * The machine's state just now: a cache line's round trip between threads pinned to CPUs 0 and
     * 1 ({@link CorePairProbe#betweenCpus}, the median of 3 probes), or NaN on a machine with one
     * CPU or where the threads cannot be pinned (said on {@code err}).
     */
    private static double probe(PrintWriter err) {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        try {
            return CorePairProbe.betweenCpus(0, 1, 3);
        } catch (MpiException e) {
            err.printf("jspin bench anchors: no cross-core probe (%s); the anchors' state is unknown%n", e.getMessage());
            return Double.NaN;
        }
    }

    /**
     * The floor's rounds ({@link FloorRounds}): its vector over its contiguous message (how far below
     * a message at the socket's speed a runtime that packs keeps the vector), and jspin bound over the
     * floor per case.
     */
    static void printFloor(PrintWriter out, FloorRounds floors, NameFilter cases) {
        if (floors.rounds() == 0) {
            return;
        }
        out.printf("%nThe floor (bench tcpfloor: the same cases over a bare socket, ranks bound, run after jspin's in"
                + " each round), per round:%n");
        List<Double> vc = floors.vectorOverContiguous();
        if (!vc.isEmpty()) {
            out.printf("  its 4 MiB vector / its contiguous 4 MiB: %s; median %s%n", list(vc),
                    fmt(Stats.median(vc)));
        }
        out.printf("  jspin bound over the floor (above 1: jspin faster):%n");
        for (AnchorCase c : AnchorCase.PINGPONG) {
            List<Double> ratios = floors.jspinOverFloor(c);
            if (cases.test(c.jspin()) && !ratios.isEmpty()) {
                out.printf("    %s: %s; median %s%n", c.jspin(), list(ratios), fmt(Stats.median(ratios)));
            }
        }
        out.flush();
    }

    /** The bound comparison again, each state of the machine apart ({@link ByState}). */
    private static void printByState(PrintWriter out, ByState v, NameFilter cases) {
        out.printf("%nBy the machine's state: a cache line's round trip between CPUs 0 and 1, probed just before and"
                + " after each run of the anchors and before each block of jspin's round trips; near: under %.0f ns"
                + " (-D%s). jspin bound against Open MPI, medians over the launches in each state (how many in"
                + " brackets); ratio of the medians (above 1: jspin ahead)%n%n", v.cut(), CoreStates.NEAR_BELOW_PROPERTY);
        out.println("| case | unit | jspin near | Open MPI near | ratio near | jspin far | Open MPI far | ratio far |");
        out.println("|---|---|--:|--:|--:|--:|--:|--:|");
        for (ByState.Row row : v.rows()) {
            if (!cases.test(row.c().jspin())) {
                continue;
            }
            out.printf("| %s | %s | %s | %s | %s | %s | %s | %s |%n", row.c().jspin(), row.c().latency() ? "us" : "GB/s",
                    counted(row.oursNear()), counted(row.theirsNear()), fmt(row.ratioNear()), counted(row.oursFar()),
                    counted(row.theirsFar()), fmt(row.ratioFar()));
        }
        out.printf("%nthe anchors' probes per round, before / after their run (ns): %s%n", String.join(" ",
                v.anchorProbes().stream().map(p -> String.format("%.0f/%.0f", p[0], p[1])).toList()));
        out.flush();
    }

    private static String counted(List<Double> xs) {
        return xs.isEmpty() ? "- (0)" : fmt(Stats.median(xs)) + " (" + xs.size() + ")";
    }

    private static String name(Binding b) {
        return b == Binding.NONE ? "unbound" : "bound";
    }

    /**
     * Runs the anchors once.
     *
     * @param what   run.sh's argument: pingpong or pack
     * @param labels the implementations' labels that must print figures
     * @throws MpiException ERR_OTHER if it prints no figures for one of {@code labels}, with its exit code
     *                      and its last lines, or if it outlives {@link #ANCHORS_TIMEOUT_MINUTES}
     */
    static AnchorResults anchors(Path runSh, String what, List<String> labels)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", runSh.toString(), what).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
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
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " " + what + " ran longer than "
                    + ANCHORS_TIMEOUT_MINUTES + " minutes and was stopped");
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        List<String> printed;
        synchronized (lines) {
            printed = List.copyOf(lines);
        }
        AnchorResults results = AnchorResults.parse(printed);
        List<String> missing = labels.stream().filter(l -> !results.labels().contains(l)).toList();
        if (!missing.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " " + what + " printed no figures for " + missing
                    + " (exit code " + p.exitValue() + "); it builds its programs with mpicc.openmpi and mpicc.mpich,"
                    + " which need Debian's libopenmpi-dev and libmpich-dev. Its last lines:"
                    + String.join("\n  ", tail(printed)));
        }
        return results;
    }

    /**
     * One launch of {@code jspin bench pack --json}, as {@code ./jspin bench pack} starts it (the
     * measuring heap flags, the Vector API), in a JVM of its own: the steadiness bar is about
     * launches, each with its own JIT history.
     */
    static List<PackResult> packInFreshJvm(String filter) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        command.addAll(RankJob.runtimeFlags(false)); // BenchJvm's flags add the Vector API's module
        command.addAll(BenchJvm.flags());
        command.add("-D" + SharedDir.PROPERTY + "=" + SharedDir.locate());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of("bench", "pack", "--json", "--filter", filter));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(ANCHORS_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new MpiException(ErrorClass.ERR_OTHER, "jspin bench pack ran longer than " + ANCHORS_TIMEOUT_MINUTES
                    + " minutes and was stopped");
        }
        if (p.exitValue() != 0) {
            throw new MpiException(ErrorClass.ERR_OTHER, "jspin bench pack failed (exit code " + p.exitValue() + ")");
        }
        List<PackResult> out = new ArrayList<>();
        for (JsonNode n : DatatypeJson.mapper().readTree(json)) {
            out.add(new PackResult(n.get("name").asText(), n.get("block_bytes").asDouble(),
                    n.get("pack_gbps").asDouble(), n.get("unpack_gbps").asDouble(), n.get("copy_gbps").asDouble()));
        }
        return out;
    }

    /** The pack report: a row per block size and operation. */
    static void printPack(PrintWriter out, PackVersus v) {
        out.printf("jspin bench anchors pack: %d interleaved round(s) measured on this machine; each implementation's"
                + " rate as a fraction of its own contiguous copy (jspin: MemorySegment.copy; the MPIs: memcpy of 4"
                + " MiB), the better MPI's per round; ratio = jspin's fraction over the better MPI's, per round, then"
                + " the median (above 1: jspin ahead); GB/s columns: medians (the faster MPI's in each round);"
                + " spread = largest over smallest of jspin's figures over the rounds (its copy's beside them: how"
                + " far the machine moved; each MPI's own GB/s after them: how far the C libraries moved in the same"
                + " rounds)%n%n", v.rounds());
        out.println("| case | op | jspin / copy | better MPI / memcpy | ratio | ratios per round | jspin GB/s |"
                + " faster MPI GB/s | spread of GB/s | spread of copy GB/s | spread of fractions | spread of the MPIs'"
                + " GB/s |");
        out.println("|---|---|--:|--:|--:|---|--:|--:|--:|--:|--:|---|");
        for (PackVersus.Row row : v.rows()) {
            out.printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", row.jspinCase(),
                    row.pack() ? "pack" : "unpack", fmt(Stats.median(row.ours())), fmt(Stats.median(row.better())),
                    fmt(Stats.median(row.ratio())), list(row.ratio()), fmt(Stats.median(row.gbps())),
                    fmt(Stats.median(row.theirGbps())), fmt(PackVersus.Row.spread(row.gbps())),
                    fmt(PackVersus.Row.spread(row.copyGbps())), fmt(PackVersus.Row.spread(row.ours())),
                    mpiSpreads(row));
        }
        out.flush();
    }

    /** @return "Open MPI 1.12, MPICH 1.30": each MPI's largest over smallest GB/s over the rounds, or "-" */
    private static String mpiSpreads(PackVersus.Row row) {
        List<String> parts = new ArrayList<>();
        row.mpiGbps().forEach((impl, gbps) -> parts.add(display(impl) + " " + fmt(PackVersus.Row.spread(gbps))));
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    /** @return the kernel's default TCP congestion control, or "unknown" where it cannot be read */
    static String kernelCongestionControl() {
        try {
            return Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
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
    static void print(PrintWriter out, Versus v, NameFilter cases, String fabric) {
        List<String> bs = v.bindings();
        out.printf("jspin bench anchors: %d interleaved round(s) measured on this machine; %s; jspin's ranks %s, the"
                + " anchors' bound; latency one-way us at p50, the rest GB/s at p50; medians over the rounds; ratios"
                + " taken per round, then their median (above 1: jspin ahead)%n%n", v.rounds(),
                fabric.equals(SHM) ? "shared memory: jspin's shm fabric against each MPI's default on one host"
                        : "TCP on 127.0.0.1: jspin's netty fabric against each MPI's TCP transport",
                String.join(" and ", bs));
        if (!fabric.equals(SHM)) {
            String ours = NettyFabricProvider.congestionWithinHost();
            out.printf("TCP congestion control: the anchors' sockets run the kernel's default (%s); jspin's connections"
                    + " within this host run %s (-Djspin.netty.congestion)%n%n", kernelCongestionControl(),
                    ours.equals("system") ? "the kernel's default too" : ours);
        }
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
                        fmt(Stats.median(vc)));
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

    /** @return "Open MPI" or "MPICH" for the anchors' ping-pong and pack labels, else the label */
    private static String display(String label) {
        return switch (label) {
            case AnchorCase.OPEN_MPI, PackVersus.OPEN_MPI -> "Open MPI";
            case AnchorCase.MPICH, PackVersus.MPICH -> "MPICH";
            default -> label;
        };
    }

    private static String list(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.join(" ", xs.stream().map(BenchAnchorsCommand::fmt).toList());
    }

    private static String fmt(Double x) {
        return x == null || Double.isNaN(x) ? "-" : String.format("%.2f", x);
    }
}
