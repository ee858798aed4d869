package org.jspin.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Table;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.report.AtomicFile;
import org.jspin.report.chart.Charts;
import org.jspin.report.chart.RenderedChart;

/**
 * The charts {@code jspin project --out} draws of its replays (simulated): each rank's finish time per NIC,
 * and the slowest rank's time by activity per NIC. The replay module stays free of charting; this is its
 * only drawer.
 */
final class ProjectCharts {
    /** The finish chart's file name, without extension. */
    static final String FINISH = "project-finish";
    /** The breakdown chart's file name, without extension. */
    static final String BREAKDOWN = "project-breakdown";
    /** Up to this many ranks each gets its bars; above, a line over the ranks, as bars would be slivers. */
    static final int MAX_RANK_BARS = 32;

    private ProjectCharts() {
    }

    /**
     * Draws both charts into {@code dir}, each through a temporary file moved into place, so that nothing
     * is half-written.
     *
     * @param name       what was replayed, for the titles
     * @param parameters the LogGOPS parameters, as printed
     * @param preset     the simulated NIC's timing preset
     * @return the files written
     */
    static List<Path> write(List<ReplayResult> results, String name, String parameters, String preset, Path dir) {
        String spaced = parameters.replace(",", ", ");
        RenderedChart finish = Charts.render(finishTable(results), finishSpec(results, name, spaced), preset);
        RenderedChart breakdown = Charts.render(breakdownTable(results), breakdownSpec(name, spaced), preset);
        return List.of(AtomicFile.write(dir.resolve(FINISH + ".png"), finish::save),
                AtomicFile.write(dir.resolve(BREAKDOWN + ".png"), breakdown::save));
    }

    /** @return one row per NIC and rank: nic, rank, finish_us */
    static Table finishTable(List<ReplayResult> results) {
        Table t = Table.of(List.of("nic", "rank", "finish_us"), Set.of());
        for (ReplayResult r : results) {
            for (int i = 0; i < r.ranks(); i++) t.add(r.nic(), i, r.finishNs(i) / 1e3);
        }
        return t;
    }

    /** @return one row per NIC, its slowest rank's (the first of equals) compute, pack, NIC and wait times in us */
    static Table breakdownTable(List<ReplayResult> results) {
        Table t = Table.of(List.of("nic", "compute_us", "cpu_pack_us", "nic_us", "wait_us"), Set.of());
        for (ReplayResult r : results) {
            int s = slowest(r);
            // the finish goes in the label: as a fifth bar it would dwarf the parts it is made of
            String label = String.format(Locale.ROOT, "%s, rank %d: %,.1f µs", r.nic(), s, r.finishNs(s) / 1e3);
            t.add(label, r.computeNs(s) / 1e3, r.cpuPackNs(s) / 1e3, r.nicNs(s) / 1e3, r.waitNs(s) / 1e3);
        }
        return t;
    }

    private static ChartSpec finishSpec(List<ReplayResult> results, String name, String parameters) {
        String title = name + ": each rank's finish time (simulated)\nLogGOPS " + parameters;
        int ranks = results.isEmpty() ? 0 : results.getFirst().ranks();
        if (ranks > MAX_RANK_BARS) {
            return ChartSpec.lines(FINISH, title, "rank", "finish_us", "nic", "rank", "finish time (µs)", false);
        }
        return ChartSpec.bars(FINISH, title, "rank", "finish_us", "nic", "rank", "finish time (µs)", false);
    }

    private static ChartSpec breakdownSpec(String name, String parameters) {
        String title = name + ": where the slowest rank's time goes (simulated)\nLogGOPS " + parameters;
        return ChartSpec.bars(BREAKDOWN, title, "nic", "compute_us", null, "NIC, its slowest rank: that rank's"
                + " finish time (the rest of it is LogGOPS's CPU overhead, o and O)", "time (µs)", false)
                .yColumns(List.of("compute_us", "cpu_pack_us", "nic_us", "wait_us"),
                        List.of("compute (calc)", "CPU pack and unpack", "NIC handlers (beside the CPU)",
                                "waiting"));
    }

    private static int slowest(ReplayResult r) {
        int last = 0;
        for (int i = 1; i < r.ranks(); i++) if (r.finishNs(i) > r.finishNs(last)) last = i;
        return last;
    }
}
