package org.jspin.examples.halo3d;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
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
 * A 3D seven-point Jacobi stencil on a 3D Cartesian grid of ranks. Each rank owns a box of the
 * N x N x N interior plus a one-cell halo and, before every sweep, trades its six faces with its
 * neighbours: each face is a subarray datatype of the rank's array (the i-faces are contiguous planes,
 * the j-faces strided rows, the k-faces a stride-of-a-row column of single doubles), sent and
 * received in place with no packing in the program. The exchange is nonblocking and overlapped with
 * the update of the box's inner cells, which need no halo; the cells next to the faces are updated
 * once the faces are in. Checked against a serial run.
 */
@Command(name = "halo3d", mixinStandardHelpOptions = true,
        description = "3D Jacobi halo exchange with subarray faces on a Cartesian grid of ranks, overlapped with the"
                + " interior update, checked against a serial run")
public final class Halo3d implements Callable<Integer>, Example {
    @Option(names = {"-n", "--ranks"}, description = "ranks (threads of this JVM), default ${DEFAULT-VALUE};"
            + " under a launcher (jspin run, mpiexec) the launcher's ranks")
    int ranks = 8;

    @Option(names = "--size", description = "interior grid points per side (N), default ${DEFAULT-VALUE}")
    int size = 96;

    @Option(names = "--iterations", description = "Jacobi sweeps, default ${DEFAULT-VALUE}")
    int iterations = 50;

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
                         double maxAbsError, Traffic traffic) {
        /** @return the report a user reads */
        public String report(String backend, String fabric) {
            return String.format("halo3d: %d^3 grid on %d ranks (%d x %d x %d), %d iterations, backend %s, fabric %s%n"
                            + "  time per iteration   %.1f us (slowest rank, measured on this machine)%n"
                            + "  bytes moved          %,.0f (%,.0f messages)%n"
                            + "  CPU bytes copied     %,.0f (packed + unpacked)%n"
                            + "  max abs error        %s%n",
                    size, ranks, dims[0], dims[1], dims[2], iterations, backend, fabric, secondsPerIteration * 1e6,
                    traffic.bytesMoved(), traffic.messages(), traffic.cpuPacked() + traffic.cpuUnpacked(),
                    Double.isNaN(maxAbsError) ? "not checked" : maxAbsError == 0 ? "0 (bit-identical to the serial run)"
                            : String.format("%.3g (against the serial run)", maxAbsError));
        }

        /** @return the report as one JSON object */
        public String json(String backend, String fabric) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("example", "halo3d");
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
    }

    /** Parameters of one run. */
    public record Params(int size, int iterations, boolean check) {
    }

    /** Command-line entry: runs on {@code --ranks} in-JVM ranks (or a launcher's) and prints the report. */
    public static void main(String[] args) {
        Examples.main("halo3d", new Halo3d(), args);
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

    /** The program of one rank: solve, time, check, and agree on the figures. */
    public static Result run(Mpi mpi, Params p) {
        Comm world = mpi.world();
        int[] dims = DimsCreate.dimsCreate(world.size(), new int[3]);
        CartComm cart = world.cartCreate(dims, new boolean[] {false, false, false}, false);
        Block b = new Block(cart, p.size());
        Traffic before = Traffic.of(mpi);
        cart.barrier();
        long t0 = System.nanoTime();
        for (int it = 0; it < p.iterations(); it++) {
            mpi.markIteration(); // an iteration boundary in a trace (docs/trace-format.md)
            b.step();
        }
        mpi.markIteration();
        double seconds = (System.nanoTime() - t0) / 1e9;
        Traffic traffic = Traffic.of(mpi).minus(before).sum(cart);
        double[] worst = {seconds, p.check() ? b.maxErrorAgainst(Box.serial(p.size(), p.iterations())) : Double.NaN};
        double[] maxima = new double[2];
        cart.allreduce(MemorySegment.ofArray(worst), MemorySegment.ofArray(maxima), 2, Datatype.DOUBLE, Ops.MAX);
        cart.free();
        return new Result(p.size(), world.size(), dims, p.iterations(),
                p.iterations() == 0 ? 0 : maxima[0] / p.iterations(), maxima[1], traffic);
    }

    /** One rank's box with its halo, its six face types and its six neighbours. */
    private static final class Block {
        final CartComm cart;
        final int n;
        final int[] first = new int[3];
        final int[] count = new int[3];
        final int nx;
        final int ny;
        final int nz;
        /** send[d][s], recv[d][s]: the face of dimension d on side s (0: low, 1: high). */
        final Datatype[][] send = new Datatype[3][2];
        final Datatype[][] recv = new Datatype[3][2];
        final int[][] neighbour = new int[3][2];
        double[] u;
        double[] v;

        Block(CartComm cart, int n) {
            this.cart = cart;
            this.n = n;
            int[] c = cart.coords();
            for (int d = 0; d < 3; d++) {
                int[] part = Box.split(n, cart.dims()[d], c[d]);
                first[d] = part[0];
                count[d] = part[1];
            }
            nx = count[0] + 2;
            ny = count[1] + 2;
            nz = count[2] + 2;
            u = new double[nx * ny * nz];
            v = new double[nx * ny * nz];
            for (int i = 0; i < nx; i++) {
                for (int j = 0; j < ny; j++) {
                    for (int k = 0; k < nz; k++) {
                        int gi = first[0] - 1 + i;
                        int gj = first[1] - 1 + j;
                        int gk = first[2] - 1 + k;
                        if (Box.onBoundary(gi, gj, gk, n)) {
                            u[(i * ny + j) * nz + k] = Box.boundary(gi, gj, gk);
                            v[(i * ny + j) * nz + k] = u[(i * ny + j) * nz + k];
                        }
                    }
                }
            }
            long[] sizes = {nx, ny, nz};
            for (int d = 0; d < 3; d++) {
                long[] sub = {count[0], count[1], count[2]};
                sub[d] = 1;
                for (int s = 0; s < 2; s++) {
                    long[] out = {1, 1, 1};
                    long[] in = {1, 1, 1};
                    out[d] = s == 0 ? 1 : count[d];      // our first or last interior layer
                    in[d] = s == 0 ? 0 : count[d] + 1;    // the halo layer beyond it
                    send[d][s] = Datatype.subarray(sizes, sub, out, Order.C, Datatype.DOUBLE).commit();
                    recv[d][s] = Datatype.subarray(sizes, sub, in, Order.C, Datatype.DOUBLE).commit();
                }
                CartComm.Shift shift = cart.shift(d, 1);
                neighbour[d][0] = shift.source();
                neighbour[d][1] = shift.dest();
            }
        }

        /** One iteration: faces out and in while the inner cells update, then the cells next to the faces. */
        void step() {
            MemorySegment s = MemorySegment.ofArray(u);
            Request[] r = new Request[12];
            int x = 0;
            for (int d = 0; d < 3; d++) {
                for (int side = 0; side < 2; side++) {
                    // a face sent towards side s arrives on the neighbour's side 1 - s: tag it by the side it lands on
                    r[x++] = cart.irecv(s, 1, recv[d][side], neighbour[d][side], 2 * d + side);
                    r[x++] = cart.isend(s, 1, send[d][side], neighbour[d][side], 2 * d + 1 - side);
                }
            }
            // cells whose six neighbours are all ours: no halo needed
            Box.sweep(u, v, ny, nz, 2, nx - 2, 2, ny - 2, 2, nz - 2);
            Request.waitAll(r);
            // the shell of cells next to the faces
            Box.sweep(u, v, ny, nz, 1, 2, 1, ny - 1, 1, nz - 1);
            if (nx - 2 > 1) {
                Box.sweep(u, v, ny, nz, nx - 2, nx - 1, 1, ny - 1, 1, nz - 1);
            }
            Box.sweep(u, v, ny, nz, 2, nx - 2, 1, 2, 1, nz - 1);
            if (ny - 2 > 1) {
                Box.sweep(u, v, ny, nz, 2, nx - 2, ny - 2, ny - 1, 1, nz - 1);
            }
            Box.sweep(u, v, ny, nz, 2, nx - 2, 2, ny - 2, 1, 2);
            if (nz - 2 > 1) {
                Box.sweep(u, v, ny, nz, 2, nx - 2, 2, ny - 2, nz - 2, nz - 1);
            }
            double[] t = u;
            u = v;
            v = t;
        }

        double maxErrorAgainst(double[] serial) {
            int w = n + 2;
            double max = 0;
            for (int i = 1; i < nx - 1; i++) {
                for (int j = 1; j < ny - 1; j++) {
                    for (int k = 1; k < nz - 1; k++) {
                        int g = ((first[0] - 1 + i) * w + (first[1] - 1 + j)) * w + (first[2] - 1 + k);
                        max = Math.max(max, Math.abs(u[(i * ny + j) * nz + k] - serial[g]));
                    }
                }
            }
            return max;
        }
    }
}
