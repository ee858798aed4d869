package org.jspin.bench.anchors;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import org.jspin.bench.Stats;
import org.jspin.bench.pingpong.CorePairProbe;
import org.jspin.bench.pingpong.CoreSplit;
import org.jspin.bench.pingpong.CoreStates;
import org.jspin.bench.pingpong.PingPongResult;

/**
 * jspin's bound ping-pong beside Open MPI's, each state of the machine apart ({@link CorePairProbe}):
 * a figure measured while the two CPUs were near each other is compared only with figures measured
 * in the same state. On the machine the state decides a 1 MiB ping-pong's rate by a factor
 * of two and lasts from seconds to minutes, so a round's two launches often ran in different states,
 * and a ratio within the round then measures the host, not the implementations.
 *
 * <p>The anchors' state comes from probes just before and just after their run (a run whose two
 * probes disagree is left out); jspin's from the probes before each block of its round trips (its
 * {@link CoreSplit}), each state's median counted where it covers at least {@value #MIN_SHARE} of
 * a case's round trips. A probe is near when it took less than {@link CoreStates#nearBelowNanos}.
 */
public final class ByState {
    /** The least share of a case's round trips that gives a state's median of it a say. */
    public static final double MIN_SHARE = 0.2;

    private final List<AnchorResults> anchors = new ArrayList<>();
    private final List<double[]> anchorProbes = new ArrayList<>();
    private final List<List<PingPongResult>> ours = new ArrayList<>();

    /**
     * Adds one round.
     *
     * @param round  what the anchors printed
     * @param before the probe just before the anchors ran, in ns (NaN: none)
     * @param after  the probe just after
     * @param bound  jspin's bound results in the same round
     */
    public void add(AnchorResults round, double before, double after, List<PingPongResult> bound) {
        anchors.add(round);
        anchorProbes.add(new double[] {before, after});
        ours.add(List.copyOf(bound));
    }

    /** @return the anchors' probes per round, before and after their run, in ns (NaN: none) */
    public List<double[]> anchorProbes() {
        return anchorProbes.stream().map(double[]::clone).toList();
    }

    /** @return the probe bound between near and far, in ns ({@link CoreStates#nearBelowNanos}) */
    public double cut() {
        return CoreStates.nearBelowNanos();
    }

    /**
     * One case's figures in each state, one per launch (jspin) or per run (Open MPI) in that state.
     *
     * @param c          the case
     * @param oursNear   jspin's figures measured near
     * @param theirsNear Open MPI's figures measured near
     * @param oursFar    jspin's figures measured far
     * @param theirsFar  Open MPI's figures measured far
     */
    public record Row(AnchorCase c, List<Double> oursNear, List<Double> theirsNear, List<Double> oursFar,
                      List<Double> theirsFar) {
        /** @return jspin ahead of Open MPI near (above 1: ahead), from the two medians; NaN without both */
        public double ratioNear() {
            return ratio(oursNear, theirsNear);
        }

        /** @return the same far */
        public double ratioFar() {
            return ratio(oursFar, theirsFar);
        }

        private double ratio(List<Double> ours, List<Double> theirs) {
            return ours.isEmpty() || theirs.isEmpty() ? Double.NaN
                    : c.ratio(Stats.median(ours), Stats.median(theirs));
        }
    }

    /** @return a row per case both measure, in {@link AnchorCase#PINGPONG}'s order */
    public List<Row> rows() {
        double cut = cut();
        List<Row> rows = new ArrayList<>();
        for (AnchorCase c : AnchorCase.PINGPONG) {
            List<Double> oursNear = new ArrayList<>();
            List<Double> oursFar = new ArrayList<>();
            List<Double> theirsNear = new ArrayList<>();
            List<Double> theirsFar = new ArrayList<>();
            for (int i = 0; i < anchors.size(); i++) {
                double[] p = anchorProbes.get(i);
                OptionalDouble theirs = anchors.get(i).value(AnchorCase.OPEN_MPI, c.anchor());
                if (theirs.isPresent() && p[0] > 0 && p[1] > 0) {
                    if (Math.max(p[0], p[1]) < cut) {
                        theirsNear.add(theirs.getAsDouble());
                    } else if (Math.min(p[0], p[1]) >= cut) {
                        theirsFar.add(theirs.getAsDouble());
                    }
                }
                for (PingPongResult r : ours.get(i)) {
                    if (r.name().equals(c.jspin())) {
                        CoreSplit s = r.cores();
                        place(c, r, s.nearShare(), s.p50NearMicros(), s.probeNearNanos(), cut, oursNear, oursFar);
                        place(c, r, 1 - s.nearShare(), s.p50FarMicros(), s.probeFarNanos(), cut, oursNear, oursFar);
                    }
                }
            }
            rows.add(new Row(c, oursNear, theirsNear, oursFar, theirsFar));
        }
        return rows;
    }

    /** One of a result's two groups of blocks, in the state its own probes say, if it is large enough. */
    private static void place(AnchorCase c, PingPongResult r, double share, double p50, double probe, double cut,
                              List<Double> near, List<Double> far) {
        if (share < MIN_SHARE || p50 <= 0 || probe <= 0) {
            return;
        }
        // a rate scales with the inverse of the time: the whole case's rate, at this group's median
        double figure = c.latency() ? p50 : r.gbps() * r.p50Micros() / p50;
        (probe < cut ? near : far).add(figure);
    }
}
