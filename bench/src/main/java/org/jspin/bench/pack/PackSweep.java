package org.jspin.bench.pack;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.jspin.bench.NameFilter;
import org.jspin.bench.Stats;
import org.jspin.settings.Settings;

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
 * <p>{@link #main} measures in a child JVM started with {@link BenchJvm#flags()} (a fixed,
 * pre-touched heap); {@link #run} measures in the calling JVM, whatever its flags.
 */
public final class PackSweep {
    /** Asks {@link #main} to measure in its own JVM rather than in a child with {@link BenchJvm#flags()}. */
    public static final String IN_PROCESS = "--in-process";

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

    /**
     * Runs the sweep and prints a Markdown table (name, block_bytes, pack, unpack and copy GB/s,
     * pack/copy, unpack/copy).
     *
     * <p>Arguments: {@code --samples N}, {@code --filter TEXT} (regular expression or substring of
     * the case name), {@code --quick} (short samples, for a smoke run), {@code --in-process} (measure
     * in this JVM instead of a child JVM started with {@link BenchJvm#flags()}), {@code --help}.
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> given = List.of(args);
        if (!given.contains(IN_PROCESS) && !given.contains("--help") && !given.contains("-h")) {
            System.exit(runInChildJvm(args));
        }
        Options o = Options.defaults();
        Integer samples = null;
        String filter = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--samples", "-n" -> samples = Integer.parseInt(value(args, ++i));
                case "--filter", "-f" -> filter = value(args, ++i);
                case "--quick", "-q" -> o = Options.quick();
                case IN_PROCESS -> {
                }
                case "--help", "-h" -> {
                    usage(System.out);
                    return;
                }
                default -> {
                    usage(System.err);
                    throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
        }
        if (samples != null) {
            o = o.withSamples(samples);
        }
        o = o.withFilter(filter);
        List<PackCase> cases = PackCases.all();
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "# PackSweep: %d samples of ~%d ms per operation, filter %s; GB/s = 1e9 B/s of payload%n",
                o.samples(), o.sampleNanos() / 1_000_000, o.filter());
        CpuContention before = CpuContention.now();
        out.println(ResultTable.header());
        long t0 = System.nanoTime();
        List<PackResult> results = run(cases, o, r -> {
            out.println(ResultTable.row(r));
            out.flush();
        });
        out.printf(Locale.ROOT, "# %d cases in %.1f s (checksum %x)%n", results.size(),
                (System.nanoTime() - t0) / 1e9, Op.checksum());
        out.println("# " + CpuContention.now().since(before));
    }

    /**
     * Runs this sweep in a child JVM with {@link BenchJvm#flags()} (as JMH forks), so the default
     * invocation measures the engine and not the heap's first-touch page faults. The child gets the
     * same Java, class path and {@code jspin.shared} property, and this process's standard streams.
     *
     * @return the child's exit status
     */
    static int runInChildJvm(String[] args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(BenchJvm.flags());
        Settings.Effective<String> shared = Settings.current().effective(SharedDir.LOCATION);
        if (shared.origin() == Settings.Origin.PROPERTY) {
            cmd.add("-D" + SharedDir.PROPERTY + "=" + shared.value());
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PackSweep.class.getName(), IN_PROCESS));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(PrintStream s) {
        s.println("usage: PackSweep [--samples N] [--filter REGEX|TEXT] [--quick] [--in-process]");
    }
}
