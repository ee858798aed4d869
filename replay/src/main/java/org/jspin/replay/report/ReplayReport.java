package org.jspin.replay.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspin.replay.engine.ReplayResult;

/**
 * The replays of one schedule on several NICs as {@code jspin project} reports them: a JSON-ready list
 * (one object per NIC, its ranks inside), a CSV (one row per NIC and rank) and a text table.
 */
public final class ReplayReport {
    /** The CSV's header line. */
    public static final String CSV_HEADER = "nic,rank,finish_ns,compute_ns,wait_ns,cpu_pack_ns,nic_ns";
    private static final int TEXT_RANKS = 16;

    private final List<ReplayResult> results;

    /** @param results one replay per NIC, in the order asked for */
    public ReplayReport(List<ReplayResult> results) {
        this.results = List.copyOf(results);
    }

    /** @return {@code [{"nic", "finish_ns", "ranks": [{"rank", "finish_ns", "compute_ns", "wait_ns", "cpu_pack_ns", "nic_ns"}]}]} */
    public List<Map<String, Object>> json() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ReplayResult r : results) {
            Map<String, Object> nic = new LinkedHashMap<>();
            nic.put("nic", r.nic());
            nic.put("finish_ns", r.finishNs());
            if (IterationTime.marked(r)) {
                IterationTime t = IterationTime.of(r);
                Map<String, Object> it = new LinkedHashMap<>();
                it.put("intervals", t.iterations());
                it.put("median_ns", t.medianNs());
                it.put("mean_ns", t.meanNs());
                it.put("compute_ns", t.computeNs());
                it.put("cpu_pack_ns", t.cpuPackNs());
                it.put("nic_ns", t.nicNs());
                nic.put("iteration", it);
            }
            List<Map<String, Object>> ranks = new ArrayList<>(r.ranks());
            for (int i = 0; i < r.ranks(); i++) {
                Map<String, Object> rank = new LinkedHashMap<>();
                rank.put("rank", i);
                rank.put("finish_ns", r.finishNs(i));
                rank.put("compute_ns", r.computeNs(i));
                rank.put("wait_ns", r.waitNs(i));
                rank.put("cpu_pack_ns", r.cpuPackNs(i));
                rank.put("nic_ns", r.nicNs(i));
                ranks.add(rank);
            }
            nic.put("ranks", ranks);
            out.add(nic);
        }
        return out;
    }

    /** @return the CSV text, header first */
    public String csv() {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (ReplayResult r : results) {
            for (int i = 0; i < r.ranks(); i++) {
                b.append(r.nic()).append(',').append(i).append(',').append(r.finishNs(i)).append(',')
                        .append(r.computeNs(i)).append(',').append(r.waitNs(i)).append(',').append(r.cpuPackNs(i))
                        .append(',').append(r.nicNs(i)).append('\n');
            }
        }
        return b.toString();
    }

    /** Writes {@link #csv()} to {@code file} through a temporary file, so that nothing is half-written. */
    public void writeCsv(Path file) {
        AtomicFile.write(file, tmp -> Files.writeString(tmp, csv(), StandardCharsets.UTF_8));
    }

    /** @return a text table: each NIC's finish, and each rank's times when there are at most 16 ranks */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%-20s %16s %8s%n", "nic", "finish_ns", "rank"));
        for (ReplayResult r : results) {
            int last = 0;
            for (int i = 1; i < r.ranks(); i++) if (r.finishNs(i) > r.finishNs(last)) last = i;
            b.append(String.format("%-20s %16d %8d%n", r.nic(), r.finishNs(), last));
        }
        if (results.stream().allMatch(IterationTime::marked)) {
            b.append(String.format("%nper iteration (the slowest rank's median interval between its marks)%n"
                    + "%-20s %10s %14s %14s %14s %14s%n", "nic", "intervals", "median_ns", "compute_ns", "cpu_pack_ns",
                    "nic_ns"));
            for (ReplayResult r : results) {
                IterationTime t = IterationTime.of(r);
                b.append(String.format("%-20s %10d %14d %14d %14d %14d%n", t.nic(), t.iterations(), t.medianNs(),
                        t.computeNs(), t.cpuPackNs(), t.nicNs()));
            }
        }
        for (ReplayResult r : results) {
            if (r.ranks() > TEXT_RANKS) continue;
            b.append(String.format("%n%s%n%6s %14s %14s %14s %14s %14s%n", r.nic(), "rank", "finish_ns", "compute_ns",
                    "wait_ns", "cpu_pack_ns", "nic_ns"));
            for (int i = 0; i < r.ranks(); i++) {
                b.append(String.format("%6d %14d %14d %14d %14d %14d%n", i, r.finishNs(i), r.computeNs(i), r.waitNs(i),
                        r.cpuPackNs(i), r.nicNs(i)));
            }
        }
        return b.toString();
    }
}
