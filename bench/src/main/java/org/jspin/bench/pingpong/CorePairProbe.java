package org.jspin.bench.pingpong;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.jspin.bench.Stats;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * How far apart the two ranks' cores are right now: one cache line, in a file both ranks map,
 * bounced between them {@value #ITERATIONS} times; the initiator times the round trips.
 *
 * <p>Why a benchmark needs it: on a virtual machine the host places the two vCPUs, and moves them,
 * and a cache line's round trip between them, and with it any transfer between them, changes by
 * several times from one state to the other (docs/PERFORMANCE.md). Every figure that moves bytes
 * between the cores (any two-rank exchange, over TCP or in one JVM)
 * follows the state, so {@link PingPong} probes before each block of round trips and reports the
 * two states apart ({@link CoreStates}).
 *
 * <p>Both sides must call {@link #roundTripNanos} the same number of times, in the same order; a
 * side that waits more than 30 s for the other fails rather than hang.
 */
public final class CorePairProbe implements AutoCloseable {
    /** Round trips per probe: a fraction of a percent of a block. */
    public static final int ITERATIONS = 200;
    /** Timed batches per probe, of which the fastest counts. */
    static final int BATCHES = 4;
    /** Round trips before the timed ones, which absorb the two sides' arrival skew. */
    static final int WARM_UP = 8;
    /** Probes before the first that counts: 20,000 round trips, past C2's compile thresholds. */
    static final int WARM_UP_PROBES = 100;
    private static final long DEFAULT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final VarHandle LINE = ValueLayout.JAVA_LONG.varHandle();
    private static final long BYTES = 4096;

    private final Arena arena;
    private final MemorySegment line;
    private final boolean initiator;
    private final long timeoutNanos;
    /** The value the next probe's first round trip starts from (both sides advance it alike). */
    private long next;

    private CorePairProbe(Arena arena, MemorySegment line, boolean initiator, long timeoutNanos) {
        this.arena = arena;
        this.line = line;
        this.initiator = initiator;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Makes the file the two sides share, in {@code /dev/shm} where it exists (else the temporary
     * directory). The caller passes its path to the other side, which {@link #open}s it; once both
     * have it mapped the file can be deleted.
     *
     * @return the file, 4 KiB of zeros
     * @throws MpiException ERR_OTHER naming the directory if the file cannot be made
     */
    public static Path createFile() {
        Path shm = Path.of("/dev/shm");
        try {
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
            Path f = Files.createTempFile(dir, "jspin-core-probe-", ".bin");
            Files.write(f, new byte[(int) BYTES]);
            return f;
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot make the cross-core probe's file in /dev/shm or "
                    + System.getProperty("java.io.tmpdir") + ": " + e, e);
        }
    }

    /**
     * @param file      the file {@link #createFile} made (on either side)
     * @param initiator whether this side times the round trips (the other answers)
     * @throws MpiException ERR_OTHER naming the file if it cannot be mapped
     */
    public static CorePairProbe open(Path file, boolean initiator) {
        return open(file, initiator, DEFAULT_TIMEOUT_NANOS);
    }

    /** {@link #open(Path, boolean)} with a given wait for the other side (for tests). */
    static CorePairProbe open(Path file, boolean initiator, long timeoutNanos) {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment line = ch.map(FileChannel.MapMode.READ_WRITE, 0, BYTES, arena);
            return new CorePairProbe(arena, line, initiator, timeoutNanos);
        } catch (IOException e) {
            arena.close();
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot map the cross-core probe's file " + file + ": " + e, e);
        }
    }

    /**
     * The probe between two threads of this JVM pinned to CPUs {@code a} and {@code b}, for a
     * command that runs other programs (the anchors) and wants the machine's state just before and
     * after: {@link #warmedUp}, then {@code probes} probes.
     *
     * @return the median of the probes, in nanoseconds per round trip
     * @throws MpiException ERR_OTHER if a thread cannot be pinned or the other side never answers
     */
    public static double betweenCpus(int a, int b, int probes) {
        CpuAffinity.check(a);
        CpuAffinity.check(b);
        Path file = createFile();
        CompletableFuture<Void> answering = null;
        try {
            answering = CompletableFuture.runAsync(() -> {
                CpuAffinity.pinCurrentThread(b);
                try (CorePairProbe p = open(file, false).warmedUp()) {
                    for (int i = 0; i < probes; i++) {
                        p.roundTripNanos();
                    }
                }
            }, r -> Thread.ofPlatform().daemon(true).start(r));
            CompletableFuture<double[]> timing = CompletableFuture.supplyAsync(() -> {
                CpuAffinity.pinCurrentThread(a);
                try (CorePairProbe p = open(file, true).warmedUp()) {
                    double[] ns = new double[probes];
                    for (int i = 0; i < probes; i++) {
                        ns[i] = p.roundTripNanos();
                    }
                    return ns;
                }
            }, r -> Thread.ofPlatform().daemon(true).start(r));
            double[] ns = timing.join();
            answering.join();
            return Stats.median(ns);
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (answering != null && answering.isCompletedExceptionally()) {
                cause = answering.exceptionNow(); // the answering side's failure is why nobody answered
            }
            if (cause instanceof MpiException m) {
                throw m;
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "the probe between CPUs " + a + " and " + b + " failed: "
                    + cause, cause);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a 4 KiB temporary file left behind
            }
        }
    }

    /**
     * One probe: {@value #WARM_UP} round trips to meet the other side, then {@value #ITERATIONS}
     * timed ones in {@value #BATCHES} batches.
     *
     * @return on the initiator, the mean round trip in nanoseconds of its fastest batch (a batch
     *         that a preemption or an interrupt fell into does not count); on the other side, NaN
     * @throws MpiException ERR_OTHER if the other side does not answer within the timeout
     */
    public double roundTripNanos() {
        long base = next;
        next += 2L * (WARM_UP + ITERATIONS);
        int perBatch = ITERATIONS / BATCHES;
        long fastest = Long.MAX_VALUE;
        long start = 0;
        for (int i = 0; i < WARM_UP + ITERATIONS; i++) {
            if (i >= WARM_UP && (i - WARM_UP) % perBatch == 0) {
                long now = System.nanoTime();
                if (i > WARM_UP) {
                    fastest = Math.min(fastest, now - start);
                }
                start = now;
            }
            long ping = base + 2L * i + 1;
            if (initiator) {
                LINE.setRelease(line, 0L, ping);
                await(ping + 1);
            } else {
                await(ping);
                LINE.setRelease(line, 0L, ping + 1);
            }
        }
        fastest = Math.min(fastest, System.nanoTime() - start);
        return initiator ? fastest / (double) perBatch : Double.NaN;
    }

    /**
     * Probes {@value #WARM_UP_PROBES} times, untimed, so that the JIT has compiled the probe before
     * any measurement it precedes (both sides call it).
     *
     * @return this probe
     */
    public CorePairProbe warmedUp() {
        for (int i = 0; i < WARM_UP_PROBES; i++) {
            roundTripNanos();
        }
        return this;
    }

    private void await(long value) {
        long deadline = 0;
        int spins = 0;
        while ((long) LINE.getAcquire(line, 0L) != value) {
            Thread.onSpinWait();
            if ((++spins & 1023) == 0) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + timeoutNanos;
                } else if (now - deadline > 0) {
                    throw new MpiException(ErrorClass.ERR_OTHER, "the other rank did not answer the cross-core probe within "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (waiting for " + value + ", the line holds "
                            + (long) LINE.getAcquire(line, 0L) + ")");
                }
            }
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
