package org.jspin.nic.sim.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspin.examples.fft2d.Fft2d;
import org.jspin.examples.halo2d.Halo2d;
import org.jspin.examples.halo3d.Halo3d;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.NicCatalog;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.report.IterationTime;

/**
 * What offload does to a whole program: an example traced on 2 to 64 thread ranks (strong scaling at
 * fixed sizes) and each trace replayed in the LogGOPS model on host NICs and on sPIN NICs
 * ({@code jspin project}'s replay), the paper's claim 7 (FFT2D) and, beyond the paper, the halos.
 */
final class ScalingFigures extends Sweeps {
    /** The paper's claim 7, in PAPER.md's words. */
    static final String CLAIM_7 = "7. FFT2D runtime up to 26% shorter at 64 nodes with offload";
    /** The reduction the paper claims at 64 nodes, in percent. */
    static final double CLAIMED_PCT = 26;
    /** The NICs compared: the host model's pack and unpack, and the simulated sPIN NIC (its default strategy). */
    static final List<String> NICS = List.of("host", "sim");

    /** A halo iteration computes tens of us: 20 of them give a median the JIT's first ones do not move. */
    private static final int HALO_ITERATIONS = 20;
    /** A transform computes milliseconds at the sizes run: 5 of them, so that two slow ones cannot be the median. */
    private static final int FFT_ITERATIONS = 5;

    private final NicCatalog catalog = new NicCatalog();
    private final LogGopsParameters network = LogGopsParameters.defaults();

    ScalingFigures(SweepContext context) {
        super(context);
    }

    /** @return the node counts of a run: 2 to 64 (up to 16 in a quick run) */
    List<Integer> nodes() {
        return quick ? List.of(2, 4, 8, 16) : List.of(2, 4, 8, 16, 32, 64);
    }

    /** Claim 7: fft2d at two sizes (one quick). */
    Figure fft2d() {
        List<Integer> sizes = quick ? List.of(256) : List.of(1024, 2048);
        ScalingSweep s = scaling((r, o, n, i) -> Fft2d.runLocal(r, o, new Fft2d.Params(n, i, false)), sizes, nodes(),
                FFT_ITERATIONS);
        verdicts.add(new Verdict(CLAIM_7, s.verdict(), s.evidence("fig-fft2d-scaling")));
        return s.figure("fig-fft2d-scaling", "fft2d", "FFT2D runtime per transform against nodes, host and sPIN NICs"
                + " (the paper's claim 7)", "N x N complex, rows split over the nodes, the transpose one alltoallw"
                + " with DDTBench's FFT2D datatypes. Sizes: at 64 nodes N = 1024 sends blocks of 16 x 16"
                + " complex (4 KiB, eager, where the per-message o and L weigh most) and N = 2048 blocks of 16 KiB,"
                + " four times the bytes the host unpacks per message (quick: N = 256).");
    }

    /** Beyond the paper: the 2D halo exchange the same way. */
    Figure halo2d() {
        return halo("halo2d", (r, o, n, i) -> Halo2d.runLocal(r, o, new Halo2d.Params(n, i, false)),
                quick ? List.of(1024) : List.of(1024, 4096), "2D Jacobi halo exchange", "N x N interior points on a"
                        + " 2D process grid; the column halos are vectors of one double per row. Sizes: 1024 (at 64"
                        + " nodes a 128 x 128 block, halos of 1 KiB) and 4096 (4 KiB halos, 16 times the compute);"
                        + " smaller ones compute too little per iteration to rise above the setup's run-to-run noise"
                        + " (quick: 1024).");
    }

    /** Beyond the paper: the 3D halo exchange the same way. */
    Figure halo3d() {
        return halo("halo3d", (r, o, n, i) -> Halo3d.runLocal(r, o, new Halo3d.Params(n, i, false)),
                quick ? List.of(64) : List.of(64, 128), "3D halo exchange", "N^3 interior points on a 3D process grid;"
                        + " the faces are non-contiguous subarrays. Sizes: 64 (at 64 nodes a 16^3 block, 2 KiB faces)"
                        + " and 128 (8 KiB faces, 8 times the compute) (quick: 64).");
    }

    /** A halo example's figure and its (unjudged) verdict: no claim of the paper speaks of it. */
    private Figure halo(String program, IterationTrace.Program run, List<Integer> sizes, String what, String notes) {
        String id = "fig-" + program + "-scaling";
        ScalingSweep s = scaling(run, sizes, nodes(), HALO_ITERATIONS);
        verdicts.add(new Verdict("Beyond the paper: " + program + " runtime with offload", "simulated (see " + id + ")",
                s.evidence(id)));
        return s.figure(id, program, what + " runtime per iteration against nodes, host and sPIN NICs", notes);
    }

    /**
     * Traces {@code program} at each size and node count for {@code iterations} iterations and projects
     * each trace on every NIC.
     */
    ScalingSweep scaling(IterationTrace.Program program, List<Integer> sizes, List<Integer> nodes, int iterations) {
        TimingConfig timing = base.timing();
        List<MessageCosts> costs = NICS.stream().map(n -> catalog.costs(n, timing, w -> {
            throw new IllegalStateException(w);
        })).toList();
        Table t = Table.of(List.of("size", "nodes", "nic", "runtime_us_measured", "compute_us_measured", "cpu_pack_us",
                "nic_us", "reduction_pct_measured"), Set.of("runtime_us_measured", "compute_us_measured",
                "reduction_pct_measured"));
        Map<Integer, IterationTrace> largest = new LinkedHashMap<>();
        for (int n : sizes) {
            // untraced first on the fewest nodes (no more threads than cores), so that the JIT compiles the
            // program before a trace measures it, and not while 64 ranks starve its compiler threads
            program.run(nodes.getFirst(), MpiOptions.defaults(), n, iterations);
            for (int p : nodes) {
                IterationTrace trace = IterationTrace.record(program, p, n, iterations);
                List<IterationTime> each = costs.stream().map(c -> trace.project(c, network)).toList();
                double host = each.getFirst().medianNs();
                for (IterationTime e : each) {
                    t.add(n, p, e.nic(), e.medianNs() / 1e3, e.computeNs() / 1e3, e.cpuPackNs() / 1e3,
                            e.nicNs() / 1e3, reductionPct(host, e.medianNs()));
                }
                largest.put(n, trace);
            }
        }
        return new ScalingSweep(t, sizes, nodes.getLast(), largest, costs, iterations, network, timing.preset());
    }

    /** @return how much shorter {@code offloaded} is than {@code host}, in percent of the host's */
    static double reductionPct(double host, double offloaded) {
        return host <= 0 ? 0 : 100 * (host - offloaded) / host;
    }
}
