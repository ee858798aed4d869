package org.jspin.examples.halo2d;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.datatype.Datatype;
import org.jspin.examples.Example;
import org.jspin.examples.Examples;
import org.jspin.examples.Json;
import org.jspin.examples.Traffic;
import org.jspin.mpi.CartComm;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.topo.DimsCreate;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A 2D Jacobi stencil on a Cartesian grid of ranks: each rank owns a block of the N x N interior
 * plus a one-cell halo, and before every sweep trades its edge rows (contiguous) and edge columns
 * (a vector datatype: one double per row, a row apart) with its four neighbours; ranks on the
 * border exchange with PROC_NULL. The result is checked against a serial run of the same sweeps.
 */
@Command(name = "halo2d", mixinStandardHelpOptions = true,
        description = "2D Jacobi halo exchange on a Cartesian grid of ranks (threads of this JVM, or the processes"
                + " of a launcher), checked against a serial run")
public final class Halo2d implements Callable<Integer>, Example {
    private static final int UP = 1;
    private static final int DOWN = 2;
    private static final int LEFT = 3;
    private static final int RIGHT = 4;

    @Option(names = {"-n", "--ranks"}, description = "ranks (threads of this JVM), default ${DEFAULT-VALUE};"
            + " under a launcher (jspin run, mpiexec) the launcher's ranks")
    int ranks = 4;

    @Option(names = "--size", description = "interior grid points per side (N), default ${DEFAULT-VALUE}")
    int size = 1024;

    @Option(names = "--iterations", description = "Jacobi sweeps, default ${DEFAULT-VALUE}")
    int iterations = 200;

    @Option(names = "--backend", description = "NIC backend, default from JSPIN_BACKEND or host")
    String backend;

    @Option(names = "--fabric", description = "fabric, default from JSPIN_FABRIC or local")
    String fabric;

    @Option(names = "--no-check", negatable = false, description = "skip the serial comparison")
    boolean noCheck;

    @Option(names = "--json", description = "print the report as one JSON object (what jspin compare reads)")
    boolean json;

    /** What a run measured (the same on every rank). */
    public record Result(int size, int ranks, int[] dims, int iterations, double secondsPerIteration,
                         double bytesMoved, double cpuBytesCopied, double messages, double maxAbsError,
                         Traffic traffic) {
        /** @return the report as one JSON object */
        public String json(String backend, String fabric) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("example", "halo2d");
            m.put("backend", backend);
            m.put("fabric", fabric);
            m.put("ranks", ranks);
            m.put("size", size);
            m.put("iterations", iterations);
            m.put("us_per_iteration_measured", secondsPerIteration * 1e6);
            m.put("max_abs_error", maxAbsError);
            m.putAll(traffic.toMap());
            return Json.object(m);
        }

        /** @return the report a user reads */
        public String report(String backend, String fabric) {
            return String.format("halo2d: %d x %d grid on %d ranks (%d x %d), %d iterations, backend %s, fabric %s%n"
                            + "  time per iteration   %.1f us (slowest rank, measured on this machine)%n"
                            + "  bytes moved          %,.0f (%,.0f messages)%n"
                            + "  CPU bytes copied     %,.0f (packed + unpacked)%n"
                            + "  max abs error        %s%n",
                    size, size, ranks, dims[0], dims[1], iterations, backend, fabric, secondsPerIteration * 1e6,
                    bytesMoved, messages, cpuBytesCopied,
                    Double.isNaN(maxAbsError) ? "not checked"
                            : maxAbsError == 0 ? "0 (bit-identical to the serial run)"
                            : String.format("%.3g (against the serial run)", maxAbsError));
        }
    }

    /** Parameters of one run. */
    public record Params(int size, int iterations, boolean check) {
    }

    /** Command-line entry: runs on {@code --ranks} in-JVM ranks and prints the report. */
    public static void main(String[] args) {
        Examples.main("halo2d", new Halo2d(), args);
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
        return noCheck || r.maxAbsError() == 0.0 ? 0 : 1;
    }

    /** Runs on {@code ranks} threads of this JVM and returns rank 0's result. */
    public static Result runLocal(int ranks, MpiOptions options, Params p) {
        return Examples.runLocal(ranks, options, mpi -> run(mpi, p));
    }

    /** The program of one rank (any launcher): solve, time, check, and agree on the figures. */
    public static Result run(Mpi mpi, Params p) {
        Comm world = mpi.world();
        int[] dims = DimsCreate.dimsCreate(world.size(), new int[2]);
        CartComm cart = world.cartCreate(dims, new boolean[] {false, false}, false);
        Block b = new Block(cart, p.size());
        Traffic before = Traffic.of(mpi);
        cart.barrier();
        long t0 = System.nanoTime();
        if (p.iterations() > 0) {
            b.postReceives(); // the first halos' receives, before anyone sends
        }
        for (int it = 0; it < p.iterations(); it++) {
            mpi.markIteration(); // an iteration boundary in a trace (docs/trace-format.md)
            b.exchange(it + 1 < p.iterations());
            b.sweep();
        }
        mpi.markIteration();
        double seconds = (System.nanoTime() - t0) / 1e9;
        Traffic sums = Traffic.of(mpi).minus(before).sum(cart);
        double[] worst = {seconds, p.check() ? b.maxErrorAgainst(SerialJacobi.run(p.size(), p.iterations())) : Double.NaN};
        double[] maxima = new double[2];
        cart.allreduce(MemorySegment.ofArray(worst), MemorySegment.ofArray(maxima), 2, Datatype.DOUBLE, Ops.MAX);
        cart.free();
        return new Result(p.size(), world.size(), dims, p.iterations(),
                p.iterations() == 0 ? 0 : maxima[0] / p.iterations(), sums.bytesMoved(),
                sums.cpuPacked() + sums.cpuUnpacked(), sums.messages(), maxima[1], sums);
    }

    /** One rank's block with its halo, and its four neighbours. */
    private static final class Block {
        final CartComm cart;
        final int n;
        final int row0;
        final int col0;
        final int rows;
        final int cols;
        final int w;
        final Datatype column;
        final int north;
        final int south;
        final int west;
        final int east;
        double[] u;
        double[] v;

        Block(CartComm cart, int n) {
            this.cart = cart;
            this.n = n;
            int[] c = cart.coords();
            int[] rs = Grid.split(n, cart.dims()[0], c[0]);
            int[] cs = Grid.split(n, cart.dims()[1], c[1]);
            row0 = rs[0];
            rows = rs[1];
            col0 = cs[0];
            cols = cs[1];
            w = cols + 2;
            u = new double[(rows + 2) * w];
            v = new double[(rows + 2) * w];
            for (int i = 0; i < rows + 2; i++) {
                for (int j = 0; j < w; j++) {
                    int gi = row0 - 1 + i;
                    int gj = col0 - 1 + j;
                    if (Grid.onBoundary(gi, gj, n)) {
                        u[i * w + j] = Grid.boundary(gi, gj, n);
                        v[i * w + j] = u[i * w + j];
                    }
                }
            }
            column = Datatype.vector(rows, 1, w, Datatype.DOUBLE).commit();
            CartComm.Shift ns = cart.shift(0, 1);
            CartComm.Shift we = cart.shift(1, 1);
            north = ns.source();
            south = ns.dest();
            west = we.source();
            east = we.dest();
        }

        /** The receives of the halos of {@code u} (posted one iteration ahead). */
        private Request[] pending;

        /**
         * Posts the receives of the halos the next sweep reads: rows as {@code cols} contiguous doubles,
         * columns as one element of the column type, straight into the halo cells.
         */
        void postReceives() {
            pending = receivesInto(u);
        }

        private Request[] receivesInto(double[] a) {
            MemorySegment s = MemorySegment.ofArray(a);
            return new Request[] {
                cart.irecv(at(s, 0, 1), cols, Datatype.DOUBLE, north, DOWN),
                cart.irecv(at(s, rows + 1, 1), cols, Datatype.DOUBLE, south, UP),
                cart.irecv(at(s, 1, 0), 1, column, west, RIGHT),
                cart.irecv(at(s, 1, cols + 1), 1, column, east, LEFT)};
        }

        /**
         * Sends our edges, waits for our halos, and, if another sweep follows, posts the receives of the
         * next halos into {@code v} (which becomes {@code u} after the sweep; the sweep writes only
         * {@code v}'s interior, so the halos can land while it runs). A receive posted before its message
         * arrives is one a NIC can place directly; one posted after waits in the unexpected list.
         */
        void exchange(boolean more) {
            MemorySegment s = MemorySegment.ofArray(u);
            Request.waitAll(
                    cart.isend(at(s, 1, 1), cols, Datatype.DOUBLE, north, UP),
                    cart.isend(at(s, rows, 1), cols, Datatype.DOUBLE, south, DOWN),
                    cart.isend(at(s, 1, 1), 1, column, west, LEFT),
                    cart.isend(at(s, 1, cols), 1, column, east, RIGHT));
            Request.waitAll(pending);
            pending = more ? receivesInto(v) : null;
        }

        private MemorySegment at(MemorySegment s, int i, int j) {
            return s.asSlice(8L * (i * w + j));
        }

        void sweep() {
            Stencil.sweep(u, v, w, 1, rows, 1, cols);
            double[] t = u;
            u = v;
            v = t;
        }

        double maxErrorAgainst(double[] serial) {
            int gw = n + 2;
            double max = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    double d = Math.abs(u[i * w + j] - serial[(row0 - 1 + i) * gw + (col0 - 1 + j)]);
                    max = Math.max(max, d);
                }
            }
            return max;
        }
    }
}
