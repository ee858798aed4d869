package org.jspin.cli;

import java.util.List;

import org.jspin.bench.Stats;
import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.PackVersus;

/** How {@code jspin bench anchors} writes its figures: two decimals, "-" for none. */
final class AnchorsFormat {
    private AnchorsFormat() {
    }

    /** @return {@code x} with two decimals, or "-" for null or NaN */
    static String fmt(Double x) {
        return x == null || Double.isNaN(x) ? "-" : String.format("%.2f", x);
    }

    /** @return the figures, space-separated, or "-" for none */
    static String list(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.join(" ", xs.stream().map(AnchorsFormat::fmt).toList());
    }

    /** @return the median and, in brackets, how many figures it is of: "- (0)" for none */
    static String counted(List<Double> xs) {
        return xs.isEmpty() ? "- (0)" : fmt(Stats.median(xs)) + " (" + xs.size() + ")";
    }

    /** @return "Open MPI" or "MPICH" for the anchors' ping-pong and pack labels, else the label */
    static String display(String label) {
        return switch (label) {
            case AnchorCase.OPEN_MPI, PackVersus.OPEN_MPI -> "Open MPI";
            case AnchorCase.MPICH, PackVersus.MPICH -> "MPICH";
            default -> label;
        };
    }
}
