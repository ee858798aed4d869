package org.jspin.bench.pack;

import java.util.Locale;

/**
 * Warms an operation up until it has settled and finds how many repetitions fill one sample.
 *
 * <p>Settled means: at least the warm-up time has passed; for the last two samples' worth of time
 * no batch ran more than 10% faster than the best before it; and the JIT is neither compiling nor
 * holding in a queue any method of the engine or the Vector API ({@link JitActivity}). A fixed
 * warm-up is not enough: the engine compiles a kernel class per shape, and on a busy two-core
 * machine C2 can take a few hundred milliseconds to compile it, while the C1 code runs the Vector
 * API kernels up to 50 times slower. The wait is capped at {@link #MAX_FACTOR} warm-up times.
 */
final class Warmup {
    /** Longest warm-up of one operation, in multiples of the configured warm-up time. */
    static final long MAX_FACTOR = 20;

    private Warmup() {
    }

    /** @return repetitions of {@code op} that make one batch last about {@code options.sampleNanos()} */
    static long calibrate(Op op, CaseBuffers b, PackSweep.Options options) {
        JitActivity jit = JitActivity.probe();
        long start = System.nanoTime();
        long minEnd = start + options.warmupNanos();
        long maxEnd = start + MAX_FACTOR * options.warmupNanos();
        long quietNanos = 2 * options.sampleNanos();
        long quietSince = start;
        double best = 0;
        long reps = 1;
        while (true) {
            long nanos = Math.max(1, op.time(b, reps));
            long now = System.nanoTime();
            double rate = (double) reps / nanos;
            if (rate > best * 1.1) {
                quietSince = now; // still getting faster
            }
            best = Math.max(best, rate);
            long fit = Math.max(1, Math.round((double) options.sampleNanos() * reps / nanos));
            if (now >= minEnd && now - quietSince >= quietNanos) {
                // asked only once the rest says settled: the query takes about a millisecond
                if (jit == null || !jit.compilingMeasuredCode()) {
                    return fit;
                }
                quietSince = now;
            }
            if (now >= maxEnd) {
                if (options.warnings()) {
                    System.err.printf(Locale.ROOT, "# %s %s: still changing after %d ms of warm-up; measuring anyway%n",
                            b.benchCase().name(), op.label(), (now - start) / 1_000_000);
                }
                return fit;
            }
            // grow at most 4x per batch, so one unrepresentative timing of a tiny batch (timer
            // granularity, a lucky cache state) cannot start a batch far longer than a sample
            reps = Math.min(fit, reps * 4);
        }
    }

    /**
     * Runs the operations of {@code c}, unmeasured, for the JVM warm-up time: without it the first
     * case is measured while C2 is still compiling the harness loops and the engine's common paths
     * (on two cores, the compiler threads compete with the measurement).
     */
    static void jvm(PackCase c, long nanos) {
        try (CaseBuffers b = new CaseBuffers(c)) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                for (Op op : Op.values()) {
                    op.time(b, 1);
                }
            }
        }
    }
}
