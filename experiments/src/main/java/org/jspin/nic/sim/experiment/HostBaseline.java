package org.jspin.nic.sim.experiment;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.lower.Node;

/**
 * The measured host baseline: our own engine's unpack of a whole message on this machine, by one
 * thread or by N threads over disjoint parts of the packed message (each with its own cursor), the
 * median of several timed repetitions after a warm-up. Wall-clock time, so it differs from run to
 * run and from machine to machine: every figure that shows it says it was measured.
 */
public final class HostBaseline implements AutoCloseable {
    private final Datatype type;
    private final long count;
    private final long bytes;
    private final long origin;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment typed;
    private final MemorySegment packed;
    private final ExecutorService pool;
    private final int threads;

    /** Buffers for {@code count} elements of {@code type}, unpacked by {@code threads} threads. */
    public HostBaseline(Datatype type, long count, int threads) {
        this.type = type;
        this.count = count;
        this.threads = threads;
        this.bytes = type.packSize(count);
        Node m = type.compiled().message(count);
        this.origin = m == null ? 0 : Math.max(0, -m.minOffset());
        long span = m == null ? 0 : origin + m.maxOffset();
        this.typed = arena.allocate(Math.max(1, span), 64);
        this.packed = arena.allocate(Math.max(1, bytes), 64);
        packed.fill((byte) 0x5A);
        this.pool = threads > 1 ? Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon().unstarted(r))
                : null;
    }

    /**
     * @return the median time of one unpack, in ns, over {@code reps} timed repetitions after at least
     *         {@code warmupMillis} of warm-up (so that the JIT has compiled the type's kernels)
     */
    public double medianNs(long warmupMillis, int reps) {
        long until = System.nanoTime() + warmupMillis * 1_000_000;
        int warm = 0;
        while (System.nanoTime() < until || warm < 3) {
            once();
            warm++;
        }
        long[] t = new long[reps];
        for (int i = 0; i < reps; i++) {
            long start = System.nanoTime();
            once();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return reps % 2 == 1 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2.0;
    }

    private void once() {
        if (pool == null) {
            type.cursor(count, typed, origin).unpack(packed, 0, bytes);
            return;
        }
        List<Callable<Long>> parts = new ArrayList<>(threads);
        long per = (bytes + threads - 1) / threads;
        for (int p = 0; p < threads; p++) {
            long from = Math.min(bytes, p * per);
            long len = Math.min(per, bytes - from);
            parts.add(() -> {
                var c = type.cursor(count, typed, origin);
                c.seek(from);
                return c.unpack(packed, from, len);
            });
        }
        try {
            for (Future<Long> f : pool.invokeAll(parts)) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a measuring thread failed", e.getCause());
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
        arena.close();
    }
}
