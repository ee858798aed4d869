package org.jspin.cli;

import static org.jspin.cli.AnchorsFormat.display;
import static org.jspin.cli.AnchorsFormat.fmt;
import static org.jspin.cli.AnchorsFormat.list;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.jspin.bench.Stats;
import org.jspin.bench.anchors.PackVersus;

/** {@code jspin bench anchors pack}'s report: a Markdown row per block size and operation. */
final class PackAnchorsReport {
    private PackAnchorsReport() {
    }

    /** Prints the rounds of {@code v}. */
    static void print(PrintWriter out, PackVersus v) {
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
}
