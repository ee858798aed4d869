package org.jspin.bench.pingpong;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One case's round trips in blocks, each block tagged with the {@link CorePairProbe} taken just
 * before it, so that the case can be reported for each state of the machine apart
 * ({@link CoreSplit}). A block counts as <em>near</em> when its probe took at most
 * {@value #NEAR_FACTOR} times the fastest probe of the whole run, and <em>far</em> otherwise:
 * on the machine the two states' probes were about 100 and about 450 ns, nothing between.
 * A run that only ever saw one state reports all of it as near; the probes' medians, reported
 * beside, show which state that was.
 */
public final class CoreStates {
    /** How much slower than the run's fastest probe a near block's probe may be. */
    public static final double NEAR_FACTOR = 2.0;
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
     * @param results the run's results, in case order
     * @param states  each result's round trips in blocks, in the same order
     * @return the results, each with its split by state, near meaning near the run's fastest probe
     */
    public static List<PingPongResult> split(List<PingPongResult> results, List<CoreStates> states) {
        if (results.size() != states.size()) {
            throw new IllegalArgumentException(results.size() + " results but " + states.size() + " cases' blocks");
        }
        double fastest = Double.POSITIVE_INFINITY;
        for (CoreStates s : states) {
            fastest = Math.min(fastest, s.fastestProbe());
        }
        List<PingPongResult> out = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            out.add(results.get(i).withCores(states.get(i).split(fastest)));
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

    /** @return the fastest probe of this case, or +infinity if it has none */
    public double fastestProbe() {
        double min = Double.POSITIVE_INFINITY;
        for (double p : probes) {
            min = Math.min(min, p);
        }
        return min;
    }

    /**
     * @param fastest the fastest probe of the run (over all cases)
     * @return the case's medians and share for each state
     */
    public CoreSplit split(double fastest) {
        long[] near = new long[n];
        long[] far = new long[n];
        int nn = 0;
        int nf = 0;
        List<Double> nearProbes = new ArrayList<>();
        List<Double> farProbes = new ArrayList<>();
        for (int b = 0; b < starts.size(); b++) {
            int from = starts.get(b);
            int to = b + 1 < starts.size() ? starts.get(b + 1) : n;
            boolean isNear = probes.get(b) <= NEAR_FACTOR * fastest;
            (isNear ? nearProbes : farProbes).add(probes.get(b));
            for (int i = from; i < to; i++) {
                if (isNear) {
                    near[nn++] = times[i];
                } else {
                    far[nf++] = times[i];
                }
            }
        }
        return new CoreSplit(n == 0 ? 0 : nn / (double) n, median(near, nn) / per, median(far, nf) / per,
                median(nearProbes), median(farProbes));
    }

    private static double median(long[] a, int len) {
        if (len == 0) {
            return 0;
        }
        long[] s = Arrays.copyOf(a, len);
        Arrays.sort(s);
        return len % 2 == 1 ? s[len / 2] : (s[len / 2 - 1] + s[len / 2]) / 2.0;
    }

    private static double median(List<Double> a) {
        if (a.isEmpty()) {
            return 0;
        }
        double[] s = a.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
