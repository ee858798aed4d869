package org.jspin.bench.pack;

import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

import org.jspin.bench.JitActivity;

/**
 * Warms an operation up until it has settled and finds how many repetitions fill one sample.
 *
 * <p>Settled means: at least the warm-up time has passed and at least {@link #MIN_CALLS} calls
 * have been made; for the last two samples' worth of time no batch ran more than 10% faster than
 * the best before it; and the JIT is neither compiling nor holding in a queue any method of the
 * engine or the Vector API ({@link JitActivity}). A fixed warm-up is not enough: the engine
 * compiles a kernel class per shape, and on a busy two-core machine C2 can take a few hundred
 * milliseconds to compile it, while the C1 code runs the Vector API kernels up to 50 times slower.
 * The wait is capped at {@link #MAX_FACTOR} warm-up times.
 */
final class Warmup {
    /** This JVM's compile queues (only the sweep's thread warms up). */
    private static final JitActivity JIT = new JitActivity();
    /** Longest warm-up of one operation, in multiples of the configured warm-up time. */
    static final long MAX_FACTOR = 20;
    /**
     * Calls of an operation before its warm-up may end. The JIT promotes code by how often it ran,
     * not for how long, and time alone let a warm-up end while a kernel still ran C1's code, which
     * it took for settled (docs/PERFORMANCE.md). A fast operation makes this many calls well within
     * the minimum warm-up time.
     */
    static final long MIN_CALLS = 64;

    private Warmup() {
    }

    /** @return repetitions of {@code op} that make one batch last about {@code options.sampleNanos()} */
    static long calibrate(Op op, CaseBuffers b, PackSweep.Options options) {
        return calibrate(reps -> op.time(b, reps), System::nanoTime, JIT::compilingMeasuredCode, options,
                b.benchCase().name() + " " + op.label());
    }

    /**
     * The warm-up, over any timed batch and clock (tests give scripted ones).
     *
     * @param batch   runs the operation {@code reps} times and returns the nanoseconds it took
     * @param clock   the time now, in nanoseconds
     * @param jitBusy whether the JIT is compiling the measured code (asked only once all else says settled)
     * @param label   what is warmed up, for the warning when it does not settle
     * @return repetitions that make one batch last about {@code options.sampleNanos()}
     */
    static long calibrate(LongUnaryOperator batch, LongSupplier clock, BooleanSupplier jitBusy,
            PackSweep.Options options, String label) {
        long start = clock.getAsLong();
        long minEnd = start + options.warmupNanos();
        long maxEnd = start + MAX_FACTOR * options.warmupNanos();
        long quietNanos = 2 * options.sampleNanos();
        long quietSince = start;
        long calls = 0;
        double best = 0;
        long reps = 1;
        while (true) {
            long nanos = Math.max(1, batch.applyAsLong(reps));
            calls += reps;
            long now = clock.getAsLong();
            double rate = (double) reps / nanos;
            if (rate > best * 1.1) {
                quietSince = now; // still getting faster
            }
            best = Math.max(best, rate);
            long fit = Math.max(1, Math.round((double) options.sampleNanos() * reps / nanos));
            if (now >= minEnd && now - quietSince >= quietNanos && calls >= MIN_CALLS) {
                // asked only once the rest says settled: the query takes about a millisecond
                if (!jitBusy.getAsBoolean()) {
                    return fit;
                }
                quietSince = now;
            }
            if (now >= maxEnd) {
                if (options.warnings()) {
                    System.err.printf(Locale.ROOT, "# %s: still changing after %d ms of warm-up; measuring anyway%n",
                            label, (now - start) / 1_000_000);
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
