package org.jspin.cli;

import static org.jspin.cli.AnchorsFormat.counted;
import static org.jspin.cli.AnchorsFormat.display;
import static org.jspin.cli.AnchorsFormat.fmt;
import static org.jspin.cli.AnchorsFormat.list;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.bench.NameFilter;
import org.jspin.bench.Stats;
import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.ByState;
import org.jspin.bench.anchors.FloorRounds;
import org.jspin.bench.anchors.Versus;
import org.jspin.bench.pingpong.CoreStates;
import org.jspin.transport.netty.NettyFabricProvider;

/**
 * {@code jspin bench anchors}' ping-pong report: the Markdown table of jspin against the MPIs, then
 * the vector, the tails and the per-round ratios; the floor's rounds; the bound rounds by the
 * machine's state. Only cases {@code cases} selects are printed.
 */
final class PingPongAnchorsReport {
    /**
     * The TCP congestion control each side ran, as the report names it.
     *
     * @param anchors the kernel's default, which the anchors' sockets run
     * @param jspin   what jspin's connections within this host run ("system" for the kernel's default)
     */
    record Congestion(String anchors, String jspin) {
        /** @return what this host and this JVM's settings say */
        static Congestion ofThisHost() {
            return new Congestion(kernelCongestionControl(), NettyFabricProvider.congestionWithinHost());
        }

        /** @return the kernel's default TCP congestion control, or "unknown" where it cannot be read */
        static String kernelCongestionControl() {
            try {
                return Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).trim();
            } catch (IOException | RuntimeException e) {
                return "unknown";
            }
        }
    }

    private PingPongAnchorsReport() {
    }

    /**
     * The report: the table, then the vector, the tails and the per-round ratios.
     *
     * @param sharedMemory whether the rounds ran over shared memory (then {@code congestion} is not printed)
     */
    static void print(PrintWriter out, Versus v, NameFilter cases, boolean sharedMemory, Congestion congestion) {
        List<String> bs = v.bindings();
        out.printf("jspin bench anchors: %d interleaved round(s) measured on this machine; %s; jspin's ranks %s, the"
                + " anchors' bound; latency one-way us at p50, the rest GB/s at p50; medians over the rounds; ratios"
                + " taken per round, then their median (above 1: jspin ahead)%n%n", v.rounds(),
                sharedMemory ? "shared memory: jspin's shm fabric against each MPI's default on one host"
                        : "TCP on 127.0.0.1: jspin's netty fabric against each MPI's TCP transport",
                String.join(" and ", bs));
        if (!sharedMemory) {
            out.printf("TCP congestion control: the anchors' sockets run the kernel's default (%s); jspin's connections"
                    + " within this host run %s (-Djspin.netty.congestion)%n%n", congestion.anchors(),
                    congestion.jspin().equals("system") ? "the kernel's default too" : congestion.jspin());
        }
        table(out, v, cases);
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

    /** The Markdown table: a column per binding of jspin, per MPI, and per MPI and binding for the ratios. */
    private static void table(PrintWriter out, Versus v, NameFilter cases) {
        List<String> bs = v.bindings();
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
    }

    /**
     * The floor's rounds ({@link FloorRounds}): its vector over its contiguous message (how far below
     * a message at the socket's speed a runtime that packs keeps the vector), and jspin bound over the
     * floor per case; nothing without a round.
     */
    static void floor(PrintWriter out, FloorRounds floors, NameFilter cases) {
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
    static void byState(PrintWriter out, ByState v, NameFilter cases) {
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
}
