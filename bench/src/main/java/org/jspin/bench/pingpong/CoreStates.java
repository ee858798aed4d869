package org.jspin.bench.pingpong;

import java.util.ArrayList;
import java.util.List;

import org.jspin.bench.Stats;
import org.jspin.error.MpiException;
import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * One case's round trips in blocks, each block tagged with the {@link CorePairProbe} taken just
 * before it, so that the case can be reported for each state of the machine apart
 * ({@link CoreSplit}). A block counts as <em>near</em> when its probe took less than
 * {@link #nearBelowNanos} and <em>far</em> otherwise.
 *
 * <p>Why a fixed bound: the probes fall in levels, and the levels' rates are what matter; a bound
 * relative to the run's fastest probe (twice it, as first written here) put a middle level with the
 * slow one whenever a run also saw the fastest (the levels measured: docs/PERFORMANCE.md).
 * Another machine has other levels: {@code -Djspin.bench.nearBelowNs} moves the bound, and the
 * probes' medians are reported beside the figures.
 */
public final class CoreStates {
    /** The default bound between near and far probes, in ns: between the machine's levels. */
    public static final double DEFAULT_NEAR_BELOW_NANOS = 300;
    /** The system property that moves the bound. */
    public static final String NEAR_BELOW_PROPERTY = "jspin.bench.nearBelowNs";
    /** {@code -Djspin.bench.nearBelowNs}. */
    public static final Setting<Double> NEAR_BELOW = Setting.decimal(NEAR_BELOW_PROPERTY, DEFAULT_NEAR_BELOW_NANOS, 0.001,
            1e9, "ns: a cache line's round trip between the two CPUs below this counts as near (bench pingpong's split)");
    /** Blocks per case: at the default scale, 5 to 15 ms each, shorter than the seconds a state lasts. */
    public static final int BLOCKS = 40;

    private final long[] times;
    private final double per;
    private final List<Double> probes = new ArrayList<>();
    private final List<Integer> starts = new ArrayList<>();
    private int n;

    /**
     * @param rounds round trips the case will record
     * @param per    what divides a recorded time to give the reported one (2000 for half a round
     *               trip in microseconds, 1000 for a streaming window's whole time)
     */
    public CoreStates(int rounds, double per) {
        this.times = new long[Math.max(0, rounds)];
        this.per = per;
    }

    /**
     * @return the bound between near and far probes in ns: {@code -Djspin.bench.nearBelowNs}, else
     *         {@value #DEFAULT_NEAR_BELOW_NANOS}
     * @throws MpiException ERR_ARG naming the property's value if it is not a positive number
     */
    public static double nearBelowNanos() {
        return Settings.current().get(NEAR_BELOW);
    }

    /**
     * @param results the run's results, in case order
     * @param states  each result's round trips in blocks, in the same order
     * @return the results, each with its split by state at {@link #nearBelowNanos}
     */
    public static List<PingPongResult> split(List<PingPongResult> results, List<CoreStates> states) {
        if (results.size() != states.size()) {
            throw new IllegalArgumentException(results.size() + " results but " + states.size() + " cases' blocks");
        }
        double bound = nearBelowNanos();
        List<PingPongResult> out = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            out.add(results.get(i).withCores(states.get(i).split(bound)));
        }
        return out;
    }

    /** @return round trips per block for a case of {@code rounds}: {@value #BLOCKS} blocks, or one round trip each */
    public static int blockRounds(int rounds) {
        return Math.max(1, (rounds + BLOCKS - 1) / BLOCKS);
    }

    /** Starts a block: the round trips recorded from now on ran after this probe. */
    public void startBlock(double probeNanos) {
        probes.add(probeNanos);
        starts.add(n);
    }

    /**
     * @param nanos one round trip (or window)
     * @throws IllegalStateException before the first block, or past the rounds given
     */
    public void record(long nanos) {
        if (starts.isEmpty() || n == times.length) {
            throw new IllegalStateException("round trip " + n + " of " + times.length + " recorded outside a block");
        }
        times[n++] = nanos;
    }

    /**
     * @param nearBelow the bound: a block whose probe took less is near
     * @return the case's medians and share for each state
     */
    public CoreSplit split(double nearBelow) {
        long[] near = new long[n];
        long[] far = new long[n];
        int nn = 0;
        int nf = 0;
        List<Double> nearProbes = new ArrayList<>();
        List<Double> farProbes = new ArrayList<>();
        for (int b = 0; b < starts.size(); b++) {
            int from = starts.get(b);
            int to = b + 1 < starts.size() ? starts.get(b + 1) : n;
            boolean isNear = probes.get(b) < nearBelow;
            (isNear ? nearProbes : farProbes).add(probes.get(b));
            for (int i = from; i < to; i++) {
                if (isNear) {
                    near[nn++] = times[i];
                } else {
                    far[nf++] = times[i];
                }
            }
        }
        return new CoreSplit(n == 0 ? 0 : nn / (double) n, orZero(Stats.median(near, nn)) / per,
                orZero(Stats.median(far, nf)) / per, orZero(Stats.median(nearProbes)), orZero(Stats.median(farProbes)));
    }

    /** A state no block was measured in reports 0, not NaN. */
    private static double orZero(double median) {
        return Double.isNaN(median) ? 0 : median;
    }

}
