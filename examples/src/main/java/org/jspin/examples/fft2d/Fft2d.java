package org.jspin.examples.fft2d;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.examples.Example;
import org.jspin.examples.Examples;
import org.jspin.examples.Json;
import org.jspin.examples.Traffic;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.op.Ops;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A distributed 2D FFT of an N x N complex matrix, rows split over the ranks: an FFT of every local
 * row, the transpose as one {@code alltoallw} with DDTBench's FFT2D datatypes (the receive type writes
 * each peer's block transposed, so no rank packs or transposes by hand), and an FFT of every local row
 * again. Rank q then holds rows [q·N/P, (q+1)·N/P) of the transform's transpose. Checked against a
 * direct DFT (on sizes small enough for one; larger sizes are checked against a serial FFT).
 */
@Command(name = "fft2d", mixinStandardHelpOptions = true,
        description = "Distributed 2D FFT whose transpose is one alltoallw with DDTBench's FFT2D datatypes, checked"
                + " against a direct DFT")
public final class Fft2d implements Callable<Integer>, Example {
    /** Largest N checked against the direct DFT (N^4 work); above, against a serial FFT. */
    static final int DIRECT_LIMIT = 32;

    @Option(names = {"-n", "--ranks"}, description = "ranks (threads of this JVM), default ${DEFAULT-VALUE};"
            + " under a launcher the launcher's ranks")
    int ranks = 4;

    @Option(names = "--size", description = "N, a power of two divisible by the ranks, default ${DEFAULT-VALUE}")
    int size = 256;

    @Option(names = "--iterations", description = "transforms, default ${DEFAULT-VALUE}")
    int iterations = 10;

    @Option(names = "--backend", description = "NIC backend, default from JSPIN_BACKEND or host")
    String backend;

    @Option(names = "--fabric", description = "fabric, default from JSPIN_FABRIC or local")
    String fabric;

    @Option(names = "--no-check", negatable = false, description = "skip the check")
    boolean noCheck;

    @Option(names = "--json", description = "print the report as one JSON object (what jspin compare reads)")
    boolean json;

    /** What a run measured (the same on every rank). */
    public record Result(int size, int ranks, int iterations, double secondsPerIteration, double maxAbsError,
                         String checkedAgainst, Traffic traffic) {
        /** @return the report a user reads */
        public String report(String backend, String fabric) {
            return String.format("fft2d: %d x %d complex on %d ranks, %d transforms, backend %s, fabric %s%n"
                            + "  time per transform   %.1f us (slowest rank, measured on this machine)%n"
                            + "  bytes moved          %,.0f (%,.0f messages)%n"
                            + "  CPU bytes copied     %,.0f (packed + unpacked)%n"
                            + "  max abs error        %s%n",
                    size, size, ranks, iterations, backend, fabric, secondsPerIteration * 1e6, traffic.bytesMoved(),
                    traffic.messages(), traffic.cpuPacked() + traffic.cpuUnpacked(),
                    Double.isNaN(maxAbsError) ? "not checked" : String.format("%.3g against %s", maxAbsError,
                            checkedAgainst));
        }

        /** @return the report as one JSON object */
        public String json(String backend, String fabric) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("example", "fft2d");
            m.put("backend", backend);
            m.put("fabric", fabric);
            m.put("ranks", ranks);
            m.put("size", size);
            m.put("iterations", iterations);
            m.put("us_per_iteration_measured", secondsPerIteration * 1e6);
            m.put("max_abs_error", maxAbsError);
            m.put("checked_against", checkedAgainst);
            m.putAll(traffic.toMap());
            return Json.object(m);
        }

        /** @return whether the result is right (within rounding of the transform's size) */
        public boolean correct() {
            return Double.isNaN(maxAbsError) || maxAbsError <= 1e-9 * size * size;
        }
    }

    /** Parameters of one run. */
    public record Params(int size, int iterations, boolean check) {
    }

    /** Command-line entry. */
    public static void main(String[] args) {
        Examples.main("fft2d", new Fft2d(), args);
    }

    @Override
    public void runOnThreads(int ranks, MpiOptions options) {
        runLocal(ranks, options, new Params(size, iterations, false));
    }

    @Override
    public Integer call() {
        Params p = new Params(size, iterations, !noCheck);
        Examples.Outcome<Result> o = Examples.run(ranks, backend, fabric, mpi -> run(mpi, p));
        Result r = o.result();
        if (o.reports()) {
            System.out.print(json ? r.json(o.backend(), o.fabric()) + "\n" : r.report(o.backend(), o.fabric()));
        }
        return r.correct() ? 0 : 1;
    }

    /** Runs on {@code ranks} threads of this JVM and returns rank 0's result. */
    public static Result runLocal(int ranks, MpiOptions options, Params p) {
        return Examples.runLocal(ranks, options, mpi -> run(mpi, p));
    }

    /** The program of one rank. */
    public static Result run(Mpi mpi, Params p) {
        Comm world = mpi.world();
        int ranks = world.size();
        int n = p.size();
        if (Integer.bitCount(n) != 1 || n % ranks != 0 || n / ranks < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "size " + n + " must be a power of two divisible by the "
                    + ranks + " ranks");
        }
        int b = n / ranks;
        int me = world.rank();
        Datatype send = Transpose.send(n, ranks);
        Datatype recv = Transpose.recv(n, ranks);
        long[] counts = new long[ranks];
        long[] sendDispls = new long[ranks];
        long[] recvDispls = new long[ranks];
        Datatype[] sendTypes = new Datatype[ranks];
        Datatype[] recvTypes = new Datatype[ranks];
        for (int j = 0; j < ranks; j++) {
            counts[j] = 1;
            sendDispls[j] = 16L * j * b;  // column block j of our rows
            recvDispls[j] = 16L * j * b;  // peer j's block lands at column j*b of our rows, transposed
            sendTypes[j] = send;
            recvTypes[j] = recv;
        }
        double[] a = new double[2 * b * n];
        double[] t = new double[2 * b * n];
        Traffic before = Traffic.of(mpi);
        world.barrier();
        long t0 = System.nanoTime();
        for (int it = 0; it < p.iterations(); it++) {
            mpi.markIteration(); // an iteration boundary in a trace (docs/trace-format.md)
            fill(a, me * b, b, n);
            transform(world, a, t, b, n, counts, sendDispls, sendTypes, recvDispls, recvTypes);
        }
        mpi.markIteration();
        double seconds = (System.nanoTime() - t0) / 1e9;
        Traffic traffic = Traffic.of(mpi).minus(before).sum(world);
        String against = n <= DIRECT_LIMIT ? "a direct DFT" : "a serial FFT";
        double[] worst = {seconds, p.check() ? error(t, me * b, b, n) : Double.NaN};
        double[] maxima = new double[2];
        world.allreduce(MemorySegment.ofArray(worst), MemorySegment.ofArray(maxima), 2, Datatype.DOUBLE, Ops.MAX);
        return new Result(n, ranks, p.iterations(), p.iterations() == 0 ? 0 : maxima[0] / p.iterations(), maxima[1],
                against, traffic);
    }

    /** Rows FFT, transpose by alltoallw (a into t), rows FFT of t. */
    private static void transform(Comm world, double[] a, double[] t, int b, int n, long[] counts, long[] sendDispls,
                                  Datatype[] sendTypes, long[] recvDispls, Datatype[] recvTypes) {
        for (int r = 0; r < b; r++) {
            Fft.row(a, 2 * r * n, n);
        }
        world.alltoallw(MemorySegment.ofArray(a), counts, sendDispls, sendTypes, MemorySegment.ofArray(t), counts,
                recvDispls, recvTypes);
        for (int r = 0; r < b; r++) {
            Fft.row(t, 2 * r * n, n);
        }
    }

    private static void fill(double[] a, int firstRow, int b, int n) {
        for (int r = 0; r < b; r++) {
            for (int c = 0; c < n; c++) {
                a[2 * (r * n + c)] = Fft.input(firstRow + r, c, false);
                a[2 * (r * n + c) + 1] = Fft.input(firstRow + r, c, true);
            }
        }
    }

    /**
     * @return the largest difference between our rows of the result (rows [first, first + b) of the
     *         transform's transpose: our row q, column c holds X[c][first + q]) and the reference
     */
    private static double error(double[] t, int first, int b, int n) {
        double[] x = new double[2 * n * n];
        fill(x, 0, n, n);
        double[] ref;
        if (n <= DIRECT_LIMIT) {
            ref = Fft.direct(x, n);
        } else {
            for (int r = 0; r < n; r++) {
                Fft.row(x, 2 * r * n, n);
            }
            ref = new double[2 * n * n];
            for (int c = 0; c < n; c++) {     // columns, via a transposed copy
                double[] col = new double[2 * n];
                for (int r = 0; r < n; r++) {
                    col[2 * r] = x[2 * (r * n + c)];
                    col[2 * r + 1] = x[2 * (r * n + c) + 1];
                }
                Fft.row(col, 0, n);
                for (int r = 0; r < n; r++) {
                    ref[2 * (r * n + c)] = col[2 * r];
                    ref[2 * (r * n + c) + 1] = col[2 * r + 1];
                }
            }
        }
        double max = 0;
        for (int q = 0; q < b; q++) {
            for (int c = 0; c < n; c++) {
                int k1 = c;
                int k2 = first + q;
                max = Math.max(max, Math.abs(t[2 * (q * n + c)] - ref[2 * (k1 * n + k2)]));
                max = Math.max(max, Math.abs(t[2 * (q * n + c) + 1] - ref[2 * (k1 * n + k2) + 1]));
            }
        }
        return max;
    }
}
