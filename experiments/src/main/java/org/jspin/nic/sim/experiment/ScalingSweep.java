package org.jspin.nic.sim.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;

/**
 * One program's scaling sweep (a {@link ScalingFigures} figure): its table, and its traces at the
 * largest node count, kept to show how the reduction moves with o; the verdict and evidence read them.
 */
final class ScalingSweep {
    /** o (ns) against LogGOPSim's default 1500: a tenth and ten times, to show what the reduction owes to it. */
    private static final List<Long> OVERHEADS = List.of(150L, 1500L, 15000L);

    private final Table table;
    private final List<Integer> sizes;
    private final int top;
    private final Map<Integer, IterationTrace> largest;
    private final List<MessageCosts> costs;
    private final int iterations;
    private final LogGopsParameters network;
    private final String preset;

    /**
     * @param table   one row per size, node count and NIC
     * @param sizes   the problem sizes, in the table's order
     * @param top     the largest node count
     * @param largest each size's traces at {@code top} nodes
     * @param costs   the NICs, host first
     * @param iterations the iterations of each trace
     * @param network the LogGOPS parameters of every replay
     * @param preset  the sPIN NIC's timing preset
     */
    ScalingSweep(Table table, List<Integer> sizes, int top, Map<Integer, IterationTrace> largest,
                 List<MessageCosts> costs, int iterations, LogGopsParameters network, String preset) {
        this.table = table;
        this.sizes = sizes;
        this.top = top;
        this.largest = largest;
        this.costs = costs;
        this.iterations = iterations;
        this.network = network;
        this.preset = preset;
    }

    /** @return one row per size, node count and NIC */
    Table table() {
        return table;
    }

    /** @return the reduction at the largest node count for size {@code n}, percent */
    double reductionAtTop(int n) {
        List<Object> sim = table.where("nodes", top).stream().filter(r -> r.get(0).equals(n)
                && r.get(2).equals(costs.getLast().nic())).findFirst().orElseThrow();
        return table.number(sim, "reduction_pct_measured");
    }

    /** @return the verdict on claim 7: within half the claimed reduction either way, or not */
    String verdict() {
        double best = sizes.stream().mapToDouble(this::reductionAtTop).max().orElseThrow();
        if (top != 64) {
            return String.format("not judged: a quick run stops at %d nodes (%.1f%% shorter there)", top, best);
        }
        if (best <= 0) return "not reproduced: offload does not shorten it";
        if (best >= ScalingFigures.CLAIMED_PCT / 2 && best <= ScalingFigures.CLAIMED_PCT * 1.5) {
            return String.format("reproduced: %.1f%% shorter", best);
        }
        return String.format("not reproduced: %.1f%% shorter, not within half of %.0f%%", best,
                ScalingFigures.CLAIMED_PCT);
    }

    /** @return the numbers behind the verdict: each size's reduction, its parts, and how it moves with o */
    String evidence(String id) {
        StringBuilder sb = new StringBuilder(id).append(", LogGOPS ").append(network).append(" (simulated; compute"
                + " measured as thread CPU time on this machine). At ").append(top).append(" nodes: ");
        for (int n : sizes) {
            List<List<Object>> rows = table.where("nodes", top).stream().filter(r -> r.get(0).equals(n)).toList();
            List<Object> host = rows.getFirst();
            List<Object> sim = rows.getLast();
            sb.append(String.format("N = %d: host %.1f us per iteration (compute %.1f, CPU pack and unpack %.1f),"
                            + " sim %.1f us (its NIC's handlers %.1f), %.1f%% shorter; ", n,
                    table.number(host, "runtime_us_measured"), table.number(host, "compute_us_measured"),
                    table.number(host, "cpu_pack_us"), table.number(sim, "runtime_us_measured"),
                    table.number(sim, "nic_us"), reductionAtTop(n)));
        }
        int n = sizes.getLast();
        List<Object> host = table.where("nodes", top).stream().filter(r -> r.get(0).equals(n)).findFirst()
                .orElseThrow();
        double runtime = table.number(host, "runtime_us_measured");
        double compute = 100 * table.number(host, "compute_us_measured") / runtime;
        double pack = 100 * table.number(host, "cpu_pack_us") / runtime;
        // what decides the reduction: offload can save at most what the host's CPU spends beyond compute
        sb.append(String.format("The host's time at N = %d is %.0f%% compute (measured), %.0f%% CPU pack and"
                + " unpack (the host model) and %.0f%% the rest (o, L, g, G and waiting); ", n, compute, pack,
                100 - compute - pack));
        sb.append("with o = ");
        List<String> moved = new ArrayList<>();
        for (long o : OVERHEADS) {
            LogGopsParameters p = network.with("o=" + o);
            double h = largest.get(n).project(costs.getFirst(), p).medianNs();
            double s = largest.get(n).project(costs.getLast(), p).medianNs();
            moved.add(String.format("%d ns %.1f%%", o, ScalingFigures.reductionPct(h, s)));
        }
        sb.append(String.join(", ", moved)).append(" at N = ").append(n).append('.');
        return sb.toString();
    }

    private boolean allPositive(int n) {
        return table.where("size", n).stream().allMatch(r -> table.number(r, "runtime_us_measured") > 0);
    }

    /** @return the figure: the table and one runtime-against-nodes plot per size */
    Figure figure(String id, String program, String title, String what) {
        // log-log, as strong scaling reads (ideal scaling is a straight line), unless noise made a point <= 0
        List<ChartSpec> charts = sizes.stream().map(n -> new ChartSpec(id + "-n" + n, program + ", N = " + n
                + ", projected runtime per iteration", false, "nodes", "runtime_us_measured", "nic",
                "nodes (ranks, one per node)", "runtime per iteration (us, projected)", true, allPositive(n),
                Double.NaN, null, ChartSpec.Arrangement.VERTICAL, ChartSpec.RowSelection.ALL).where("size", n))
                .toList();
        return new Figure(id, title, table, charts, what + " Each point: the program traced on thread ranks for "
                + iterations + " iterations, each rank marking their boundaries; runtime per iteration = the slowest"
                + " rank's median interval between its marks in the replay, so that neither the setup nor the JIT's"
                + " first iterations count, and the columns beside it that rank's in that interval. Replayed with"
                + " LogGOPS "
                + network + " (L, o, g, O, S:"
                + " LogGOPSim's defaults; G: the paper's 200 Gbit/s), host = the host model's pack and unpack on"
                + " the CPU, sim = the sPIN NIC's handlers at the " + preset + " preset. Columns"
                + " marked measured include compute measured as thread CPU time on this machine (up to 64 threads"
                + " on its cores), and so its run-to-run noise, in that interval; cpu_pack_us"
                + " and nic_us are the NIC models' (simulated).");
    }
}
