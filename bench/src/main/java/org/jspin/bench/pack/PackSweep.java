package org.jspin.bench.pack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.jspin.bench.NameFilter;
import org.jspin.bench.Stats;

/**
 * Whole-system pack/unpack measurement: every case in one JVM, one after the other, with the
 * engine in whatever state the earlier cases left it (as in an application), unlike JMH's fork per
 * parameter. Quick enough to sweep all cases in about a minute.
 *
 * <p>Per case: native buffers ({@link CaseBuffers}), a warm-up of each operation until it has
 * settled ({@link Warmup}) that also finds how many repetitions fill one sample, then
 * {@code samples} rounds of copy, pack and unpack. The three are interleaved within each round so
 * that they see the same machine state (frequency, neighbours, cache contents), which on a shared,
 * noisy machine makes their ratio more trustworthy than any absolute figure. Each operation's
 * median over the rounds is reported; a case whose samples jumped is measured again.
 *
 * <p>{@link #run} measures in the calling JVM, whatever its flags: {@code jspin bench pack} is the
 * way in, in a JVM the {@code jspin} script starts with {@link BenchJvm}'s heap flags.
 */
public final class PackSweep {
    /**
     * Spread of one operation's samples (fastest over slowest) above which a measurement is taken
     * to have seen the code change. A neighbour's build on this machine moves samples by up to
     * about 1.5x; a JIT tier arriving moves them by 10x and more.
     */
    static final double UNSTABLE_RATIO = 2.0;
    /** Measurements of a case at most, when its samples keep being unstable. */
    static final int MAX_ATTEMPTS = 3;

    private PackSweep() {
    }

    /**
     * How the sweep runs.
     *
     * @param samples     measured rounds per case (each round times copy, pack and unpack once)
     * @param warmupNanos least time spent warming up each operation of a case before measuring it
     *                    (longer while the JIT is still at work: see {@link Warmup})
     * @param sampleNanos target duration of one sample (the repetition count is chosen to fill it)
     * @param jvmWarmupNanos extra warm-up before the first case, while the JIT compiles the
     *                    harness and the engine's common paths for the first time
     * @param filter      which cases to run
     * @param warnings    whether to report on standard error when a case did not settle
     */
    public record Options(int samples, long warmupNanos, long sampleNanos, long jvmWarmupNanos, NameFilter filter,
            boolean warnings) {
        /** Default number of rounds. */
        public static final int DEFAULT_SAMPLES = 7;

        /** Validates the numbers. */
        public Options {
            if (samples < 1) {
                throw new IllegalArgumentException("samples must be at least 1, got " + samples);
            }
            if (warmupNanos < 0 || jvmWarmupNanos < 0 || sampleNanos <= 0) {
                throw new IllegalArgumentException("warm-up times must be >= 0 and the sample time > 0");
            }
            if (filter == null) {
                filter = NameFilter.of(null);
            }
        }

        /**
         * The full measurement: 7 rounds of ~15 ms samples after at least 50 ms of warm-up per
         * operation, about 0.5 s a case, and 0.5 s of JVM warm-up on the first case. 15 ms is long against
         * timer resolution and short against the machine's slow drift.
         */
        public static Options defaults() {
            return new Options(DEFAULT_SAMPLES, 50_000_000L, 15_000_000L, 500_000_000L, NameFilter.of(null), true);
        }

        /**
         * For tests and smoke runs: 3 rounds of ~1 ms samples after at least 5 ms of warm-up, no
         * warnings; the figures mean little.
         */
        public static Options quick() {
            return new Options(3, 5_000_000L, 1_000_000L, 0, NameFilter.of(null), false);
        }

        /** @return these options with another number of rounds */
        public Options withSamples(int n) {
            return new Options(n, warmupNanos, sampleNanos, jvmWarmupNanos, filter, warnings);
        }

        /** @return these options with a name filter ({@link NameFilter}) */
        public Options withFilter(String text) {
            return new Options(samples, warmupNanos, sampleNanos, jvmWarmupNanos, NameFilter.of(text), warnings);
        }
    }

    /**
     * Measures every case that the filter selects, in list order.
     *
     * @param onResult called with each result as soon as it is measured (for progress output)
     * @return the results, in list order
     */
    public static List<PackResult> run(List<PackCase> cases, Options options, Consumer<PackResult> onResult) {
        List<PackResult> out = new ArrayList<>();
        for (PackCase c : cases) {
            if (options.filter().test(c.name())) {
                if (out.isEmpty() && options.jvmWarmupNanos() > 0) {
                    Warmup.jvm(c, options.jvmWarmupNanos());
                }
                PackResult r = measure(c, options);
                out.add(r);
                onResult.accept(r);
            }
        }
        return out;
    }

    /**
     * Measures one case (the filter is not consulted). If some sample of an operation came out more
     * than {@link #UNSTABLE_RATIO} times faster than another, the code changed under the
     * measurement (typically C2's code for a kernel arriving in the middle of it) and the case is
     * warmed up and measured again, up to {@link #MAX_ATTEMPTS} times in all.
     */
    public static PackResult measure(PackCase c, Options options) {
        try (CaseBuffers b = new CaseBuffers(c)) {
            double[][] gbps;
            for (int attempt = 1; ; attempt++) {
                gbps = rounds(b, options);
                Op unstable = unstable(gbps);
                if (unstable == null) {
                    break;
                }
                if (attempt == MAX_ATTEMPTS) {
                    if (options.warnings()) {
                        System.err.printf(Locale.ROOT, "# %s %s: samples still vary more than %.0fx after %d attempts%n",
                                c.name(), unstable.label(), UNSTABLE_RATIO, attempt);
                    }
                    break;
                }
            }
            return new PackResult(c.name(), c.blockBytes(), Stats.median(gbps[Op.PACK.ordinal()]),
                    Stats.median(gbps[Op.UNPACK.ordinal()]), Stats.median(gbps[Op.COPY.ordinal()]));
        }
    }

    /** Warms up each operation, then times the rounds: {@code gbps[op.ordinal()][sample]}. */
    private static double[][] rounds(CaseBuffers b, Options options) {
        Op[] order = Op.values(); // a round runs them in declaration order
        long[] reps = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            reps[k] = Warmup.calibrate(order[k], b, options);
        }
        double[][] gbps = new double[order.length][options.samples()];
        for (int s = 0; s < options.samples(); s++) {
            for (int k = 0; k < order.length; k++) {
                long nanos = order[k].time(b, reps[k]);
                // bytes per nanosecond is exactly GB/s (1e9 B/s)
                gbps[k][s] = (double) b.benchCase().payloadBytes() * reps[k] / Math.max(1, nanos);
            }
        }
        return gbps;
    }

    /** @return an operation whose fastest sample beat its slowest by more than {@link #UNSTABLE_RATIO}, or null */
    static Op unstable(double[][] gbps) {
        for (Op op : Op.values()) {
            double[] g = gbps[op.ordinal()];
            if (Arrays.stream(g).max().orElse(0) > UNSTABLE_RATIO * Arrays.stream(g).min().orElse(0)) {
                return op;
            }
        }
        return null;
    }
}
