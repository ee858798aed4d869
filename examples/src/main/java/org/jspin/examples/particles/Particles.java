package org.jspin.examples.particles;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import org.jspin.datatype.Datatype;
import org.jspin.examples.Example;
import org.jspin.examples.Examples;
import org.jspin.examples.Json;
import org.jspin.examples.Traffic;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.mpi.op.Ops;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A LAMMPS-like particle exchange: each rank keeps an array of particles, C structs of 64 bytes
 * ({@code int id; int type; double x[3]; double v[3]; double q;}), and in every step sends a random
 * subset of them (those that "left its domain") to the next rank of a ring, described in place by an
 * indexed-block datatype over the struct type: no packing in the program. The receiver takes whatever
 * count arrives ({@code Status.count}) into a contiguous array of the same struct. Both sides checksum
 * the particles they sent and received; each sender's checksum follows its particles, and every
 * receiver compares.
 */
@Command(name = "particles", mixinStandardHelpOptions = true,
        description = "LAMMPS-like exchange of a random subset of particles (a struct type, picked by an indexed-block"
                + " type) around a ring of ranks, checked by checksums on both sides")
public final class Particles implements Callable<Integer>, Example {
    /** Bytes of one particle, as C lays the struct out. */
    static final int BYTES = 64;
    /** The particle: two ints, then seven doubles from byte 8, 64 bytes apart. */
    static final Datatype PARTICLE = Datatype.resized(0, BYTES, Datatype.struct(new long[] {2, 7}, new long[] {0, 8},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE})).commit();
    private static final int DATA = 1;
    private static final int CHECKSUM = 2;

    @Option(names = {"-n", "--ranks"}, description = "ranks (threads of this JVM), default ${DEFAULT-VALUE};"
            + " under a launcher the launcher's ranks")
    int ranks = 4;

    @Option(names = "--size", description = "particles per rank, default ${DEFAULT-VALUE}")
    int size = 20_000;

    @Option(names = "--iterations", description = "exchanges, default ${DEFAULT-VALUE}")
    int iterations = 50;

    @Option(names = "--fraction", description = "share of a rank's particles sent per exchange, at most;"
            + " default ${DEFAULT-VALUE}")
    double fraction = 0.1;

    @Option(names = "--seed", description = "seed of the subsets, default ${DEFAULT-VALUE}")
    long seed = 7;

    @Option(names = "--backend", description = "NIC backend, default from JSPIN_BACKEND or host")
    String backend;

    @Option(names = "--fabric", description = "fabric, default from JSPIN_FABRIC or local")
    String fabric;

    @Option(names = "--json", description = "print the report as one JSON object (what jspin compare reads)")
    boolean json;

    /** What a run measured (the same on every rank). */
    public record Result(int size, int ranks, int iterations, double secondsPerIteration, double particlesMoved,
                         double mismatches, Traffic traffic) {
        /** @return the report a user reads */
        public String report(String backend, String fabric) {
            return String.format("particles: %,d per rank on %d ranks, %d exchanges, backend %s, fabric %s%n"
                            + "  time per exchange    %.1f us (slowest rank, measured on this machine)%n"
                            + "  particles moved      %,.0f (%,.0f bytes in %,.0f messages)%n"
                            + "  CPU bytes copied     %,.0f (packed + unpacked)%n"
                            + "  checksums            %s%n",
                    size, ranks, iterations, backend, fabric, secondsPerIteration * 1e6, particlesMoved,
                    traffic.bytesMoved(), traffic.messages(), traffic.cpuPacked() + traffic.cpuUnpacked(),
                    mismatches == 0 ? "every exchange matched on both sides" : mismatches + " exchanges DIFFER");
        }

        /** @return the report as one JSON object */
        public String json(String backend, String fabric) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("example", "particles");
            m.put("backend", backend);
            m.put("fabric", fabric);
            m.put("ranks", ranks);
            m.put("size", size);
            m.put("iterations", iterations);
            m.put("us_per_iteration_measured", secondsPerIteration * 1e6);
            m.put("max_abs_error", mismatches);
            m.put("particles_moved", particlesMoved);
            m.putAll(traffic.toMap());
            return Json.object(m);
        }
    }

    /** Parameters of one run. */
    public record Params(int size, int iterations, double fraction, long seed) {
    }

    /** Command-line entry. */
    public static void main(String[] args) {
        Examples.main("particles", new Particles(), args);
    }

    @Override
    public void runOnThreads(int ranks, MpiOptions options) {
        runLocal(ranks, options, new Params(size, iterations, fraction, seed));
    }

    @Override
    public Integer call() {
        Params p = new Params(size, iterations, fraction, seed);
        Examples.Outcome<Result> o = Examples.run(ranks, backend, fabric, mpi -> run(mpi, p));
        Result r = o.result();
        if (o.reports()) {
            System.out.print(json ? r.json(o.backend(), o.fabric()) + "\n" : r.report(o.backend(), o.fabric()));
        }
        return r.mismatches() == 0 ? 0 : 1;
    }

    /** Runs on {@code ranks} threads of this JVM and returns rank 0's result. */
    public static Result runLocal(int ranks, MpiOptions options, Params p) {
        return Examples.runLocal(ranks, options, mpi -> run(mpi, p));
    }

    /** The program of one rank. */
    public static Result run(Mpi mpi, Params p) {
        Comm world = mpi.world();
        int me = world.rank();
        int next = (me + 1) % world.size();
        int prev = (me + world.size() - 1) % world.size();
        int maxSend = Math.max(1, (int) (p.size() * p.fraction()));
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mine = arena.allocate((long) BYTES * p.size(), 64);
            MemorySegment in = arena.allocate((long) BYTES * maxSend, 64);
            for (int i = 0; i < p.size(); i++) {
                init(mine, i, me * p.size() + i);
            }
            SplittableRandom random = new SplittableRandom(p.seed() * 1_000_003L + me);
            long[] sum = new long[1];
            long[] theirs = new long[1];
            long moved = 0;
            long mismatches = 0;
            Traffic before = Traffic.of(mpi);
            world.barrier();
            long t0 = System.nanoTime();
            for (int it = 0; it < p.iterations(); it++) {
                mpi.markIteration(); // an iteration boundary in a trace (docs/trace-format.md)
                long[] picks = subset(random, p.size(), 1 + random.nextInt(maxSend));
                Datatype leaving = Datatype.indexedBlock(1, picks, PARTICLE).commit();
                sum[0] = checksum(mine, picks);
                Request data = world.irecv(in, maxSend, PARTICLE, prev, DATA);
                Request check = world.irecv(MemorySegment.ofArray(theirs), 1, Datatype.LONG, prev, CHECKSUM);
                Request.waitAll(world.isend(mine, 1, leaving, next, DATA),
                        world.isend(MemorySegment.ofArray(sum), 1, Datatype.LONG, next, CHECKSUM));
                Status got = data.waitFor();
                check.waitFor();
                long k = got.count(PARTICLE);
                moved += k;
                if (checksum(in, k) != theirs[0]) {
                    mismatches++;
                }
                move(mine, picks, random);
            }
            mpi.markIteration();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Traffic traffic = Traffic.of(mpi).minus(before).sum(world);
            double[] local = {moved, mismatches};
            double[] sums = new double[2];
            world.allreduce(MemorySegment.ofArray(local), MemorySegment.ofArray(sums), 2, Datatype.DOUBLE, Ops.SUM);
            double[] slowest = new double[1];
            world.allreduce(MemorySegment.ofArray(new double[] {seconds}), MemorySegment.ofArray(slowest), 1,
                    Datatype.DOUBLE, Ops.MAX);
            return new Result(p.size(), world.size(), p.iterations(),
                    p.iterations() == 0 ? 0 : slowest[0] / p.iterations(), sums[0], sums[1], traffic);
        }
    }

    /** @return {@code k} distinct particle indices of {@code n}, in increasing order (an indexed type's displacements) */
    static long[] subset(SplittableRandom random, int n, int k) {
        java.util.BitSet chosen = new java.util.BitSet(n);
        while (chosen.cardinality() < k) {
            chosen.set(random.nextInt(n));
        }
        return chosen.stream().asLongStream().toArray();
    }

    private static void init(MemorySegment s, int i, int id) {
        long at = (long) BYTES * i;
        s.set(ValueLayout.JAVA_INT, at, id);
        s.set(ValueLayout.JAVA_INT, at + 4, id % 3);
        for (int f = 0; f < 7; f++) {
            s.set(ValueLayout.JAVA_DOUBLE, at + 8 + 8L * f, id * 0.001 + f);
        }
    }

    /** The particles that left are replaced by ones that arrived (new positions, so every step differs). */
    private static void move(MemorySegment s, long[] picks, SplittableRandom random) {
        for (long i : picks) {
            long at = BYTES * i;
            for (int f = 0; f < 3; f++) {
                s.set(ValueLayout.JAVA_DOUBLE, at + 8 + 8L * f, random.nextDouble());
            }
        }
    }

    /** @return a checksum of the particles at {@code picks} (every field) */
    static long checksum(MemorySegment s, long[] picks) {
        long h = 0;
        for (long i : picks) {
            h = h * 31 + particleHash(s, BYTES * i);
        }
        return h;
    }

    /** @return a checksum of the first {@code k} particles of a contiguous array */
    static long checksum(MemorySegment s, long k) {
        long h = 0;
        for (long i = 0; i < k; i++) {
            h = h * 31 + particleHash(s, BYTES * i);
        }
        return h;
    }

    private static long particleHash(MemorySegment s, long at) {
        long h = s.get(ValueLayout.JAVA_INT, at) * 0x9E3779B97F4A7C15L + s.get(ValueLayout.JAVA_INT, at + 4);
        for (int f = 0; f < 7; f++) {
            h = h * 1_000_003 + Double.doubleToLongBits(s.get(ValueLayout.JAVA_DOUBLE, at + 8 + 8L * f));
        }
        return h;
    }
}
