package org.jspin.bench.pingpong;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.HdrHistogram.Histogram;
import org.jspin.bench.JitActivity;
import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.jspin.mpi.op.Ops;

/**
 * Ping-pong between two ranks: rank 0 sends, rank 1 sends the message back, and rank 0 times each
 * round trip (or each window of a streaming case) into an HdrHistogram (nanoseconds). A warm-up
 * runs first, until the JIT has compiled the path being measured ({@link #warmUp}).
 */
public final class PingPong {
    private static final int TAG = 7;
    private static final int ACK_TAG = 8;
    private static final int PROBE_TAG = 9;
    /** Seconds of warm-up at most, however long the JIT keeps compiling. */
    private static final int WARM_UP_LIMIT_SECONDS = 10;
    /**
     * Batches in a row without compilation that end the warm-up: after one, the first case of a run
     * still had round trips at ten times the median in its 99th percentile.
     */
    private static final int QUIET_BATCHES = 3;

    private PingPong() {
    }

    /**
     * Runs every case on two ranks of this JVM (the in-JVM fabric, or any fabric the options name),
     * each contiguous ping-pong followed by its {@link CopyFloor}, which the two rank threads
     * measure between them.
     */
    public static List<PingPongResult> runLocal(MpiOptions options, List<PingPongCase> cases) {
        AtomicReference<List<PingPongResult>> out = new AtomicReference<>();
        CopyFloor[] floors = new CopyFloor[cases.size()];
        for (int i = 0; i < floors.length; i++) {
            floors[i] = hasFloor(cases.get(i)) ? new CopyFloor() : null;
        }
        LocalRanks.run(2, options, mpi -> {
            List<PingPongResult> r = run(mpi, cases, floors);
            if (mpi.rank() == 0) {
                out.set(r);
            }
        });
        return out.get();
    }

    /** The program of both ranks: rank 0 returns the results, rank 1 an empty list. */
    public static List<PingPongResult> run(Mpi mpi, List<PingPongCase> cases) {
        return run(mpi, cases, new CopyFloor[cases.size()]);
    }

    /**
     * A contiguous ping-pong has a copy floor where both ranks are threads of one JVM: a stream's
     * window has no single copy to compare with, and a vector's packing is part of what it measures.
     */
    private static boolean hasFloor(PingPongCase c) {
        return !c.streaming() && c.bytes() > 0 && c.bufferBytes() == c.bytes();
    }

    /** {@link #run(Mpi, List)}, with the copy floor after each case {@code floors} has one for (by index). */
    private static List<PingPongResult> run(Mpi mpi, List<PingPongCase> cases, CopyFloor[] floors) {
        Comm w = mpi.world();
        if (w.size() != 2) {
            throw new IllegalArgumentException("ping-pong needs exactly 2 ranks, got " + w.size());
        }
        List<PingPongResult> results = new ArrayList<>();
        List<CoreStates> states = new ArrayList<>();
        try (CorePairProbe probe = probe(w)) {
            for (int i = 0; i < cases.size(); i++) {
                PingPongCase c = cases.get(i);
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment buf = arena.allocate(Math.max(1, c.bufferBytes()), 64);
                    buf.fill((byte) 1);
                    warmUp(w, c, buf);
                    w.barrier();
                    Histogram h = new Histogram(3);
                    // a ping-pong reports half the round trip; a window its whole time, for its bytes
                    double per = c.streaming() ? 1e3 : 2e3;
                    CoreStates blocks = new CoreStates(c.iterations(), per);
                    CpuPacking before = CpuPacking.of(mpi);
                    bounce(w, c, buf, c.iterations(), h, probe, blocks);
                    CpuPacking packing = CpuPacking.of(mpi).minus(before);
                    double floorNanos = 0;
                    if (floors[i] != null) {
                        w.barrier();
                        // right after the case, in its buffers, while the machine is in the state the case saw
                        floorNanos = floors[i].oneWayNanos(w.rank(), buf, c.iterations());
                    }
                    if (w.rank() == 0) {
                        long bytes = c.streaming() ? c.bytes() * c.window() : c.bytes();
                        double p50 = h.getValueAtPercentile(50) / per;
                        results.add(new PingPongResult(c.name(), c.bytes(), c.iterations(), p50,
                                h.getValueAtPercentile(90) / per, h.getValueAtPercentile(99) / per,
                                bytes / (p50 * 1e3), packing.packGbps(), packing.unpackGbps(), CoreSplit.NONE,
                                floorNanos / 1e3));
                        states.add(blocks);
                    }
                    w.barrier();
                }
            }
        }
        return CoreStates.split(results, states);
    }

    /**
     * The cross-core probe both ranks share: rank 0 makes its file and sends the path to rank 1;
     * the file is deleted once both have mapped it.
     */
    private static CorePairProbe probe(Comm w) {
        if (w.rank() == 0) {
            Path file = CorePairProbe.createFile();
            try {
                byte[] name = file.toString().getBytes(StandardCharsets.UTF_8);
                w.send(MemorySegment.ofArray(new int[] {name.length}), 1, Datatype.INT, 1, PROBE_TAG);
                w.send(MemorySegment.ofArray(name), name.length, Datatype.BYTE, 1, PROBE_TAG);
                CorePairProbe probe = CorePairProbe.open(file, true);
                w.barrier();
                return probe.warmedUp();
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a temporary file left behind; the run goes on
                }
            }
        }
        int[] length = new int[1];
        w.recv(MemorySegment.ofArray(length), 1, Datatype.INT, 0, PROBE_TAG);
        byte[] name = new byte[length[0]];
        w.recv(MemorySegment.ofArray(name), name.length, Datatype.BYTE, 0, PROBE_TAG);
        CorePairProbe probe = CorePairProbe.open(Path.of(new String(name, StandardCharsets.UTF_8)), false);
        w.barrier();
        return probe.warmedUp();
    }

    /**
     * Bounces until the JIT has settled: batches of a fifth of the measured rounds (at least 50),
     * until neither rank's compilers did anything during {@value #QUIET_BATCHES} batches in a row
     * ({@link JitActivity}: their threads' CPU time and ended compilations, combined over both ranks
     * with a max-allreduce), or for at most {@value #WARM_UP_LIMIT_SECONDS} s. A compilation
     * during the measurement takes a core from a rank that is spinning, which on two cores shows up
     * as round trips a hundred times the median.
     */
    private static void warmUp(Comm w, PingPongCase c, MemorySegment buf) {
        JitActivity jit = new JitActivity();
        long start = System.nanoTime();
        // what this rank saw: [compiler activity in the batch, nanoseconds since the warm-up began]
        MemorySegment mine = MemorySegment.ofArray(new long[2]);
        MemorySegment most = MemorySegment.ofArray(new long[2]);
        int batch = Math.max(50, c.iterations() / 5);
        // each batch records and ends in a barrier, as the measurement does and is preceded by:
        // code compiled without having seen them was thrown away ("uncommon trap") at the start of
        // the first measured case, on the whole message path of both ranks, and recompiling it
        // took the core from the spinning rank in 4 ms time slices (docs/PERFORMANCE.md)
        Histogram scratch = new Histogram(3);
        int quiet = 0;
        long elapsed = 0;
        while (quiet < QUIET_BATCHES && elapsed < WARM_UP_LIMIT_SECONDS * 1_000_000_000L) {
            jit.since();
            bounce(w, c, buf, batch, scratch, null, null);
            mine.set(ValueLayout.JAVA_LONG, 0, jit.since());
            mine.set(ValueLayout.JAVA_LONG, 8, System.nanoTime() - start);
            w.allreduce(mine, most, 2, Datatype.LONG, Ops.MAX); // both ranks stop after the same batch
            w.barrier();
            quiet = most.get(ValueLayout.JAVA_LONG, 0) == 0 ? quiet + 1 : 0;
            elapsed = most.get(ValueLayout.JAVA_LONG, 8);
        }
    }

    /**
     * {@code rounds} round trips (or windows), recorded in {@code h}; with a probe, in
     * {@link CoreStates#blockRounds} blocks, each after a probe both ranks take, and recorded in
     * {@code blocks} too (rank 0).
     */
    private static void bounce(Comm w, PingPongCase c, MemorySegment buf, int rounds, Histogram h,
                               CorePairProbe probe, CoreStates blocks) {
        int block = CoreStates.blockRounds(rounds);
        Request[] window = new Request[c.window()];
        MemorySegment ack = MemorySegment.ofArray(new byte[1]);
        for (int i = 0; i < rounds; i++) {
            if (probe != null && i % block == 0) {
                double p = probe.roundTripNanos();
                if (w.rank() == 0) {
                    blocks.startBlock(p);
                }
            }
            if (c.streaming()) {
                window(w, c, buf, window, ack, h, blocks);
            } else if (w.rank() == 0) {
                long t0 = System.nanoTime();
                w.send(buf, c.count(), c.type(), 1, TAG);
                w.recv(buf, c.count(), c.type(), 1, TAG);
                long t = System.nanoTime() - t0;
                h.recordValue(t);
                if (blocks != null) {
                    blocks.record(t);
                }
            } else {
                w.recv(buf, c.count(), c.type(), 0, TAG);
                w.send(buf, c.count(), c.type(), 0, TAG);
            }
        }
    }

    /** A window of isends from rank 0, irecvs on rank 1, and a 1-byte ack closing it. */
    private static void window(Comm w, PingPongCase c, MemorySegment buf, Request[] window, MemorySegment ack,
                               Histogram h, CoreStates blocks) {
        if (w.rank() == 0) {
            long t0 = System.nanoTime();
            for (int k = 0; k < window.length; k++) {
                window[k] = w.isend(buf, c.count(), c.type(), 1, TAG);
            }
            Request.waitAll(window);
            w.recv(ack, 1, Datatype.BYTE, 1, ACK_TAG);
            long t = System.nanoTime() - t0;
            h.recordValue(t);
            if (blocks != null) {
                blocks.record(t);
            }
        } else {
            for (int k = 0; k < window.length; k++) {
                window[k] = w.irecv(buf, c.count(), c.type(), 0, TAG);
            }
            Request.waitAll(window);
            w.send(ack, 1, Datatype.BYTE, 0, ACK_TAG);
        }
    }
}
