package org.jspin.bench.jmh;

import org.jspin.bench.pack.CaseBuffers;
import org.jspin.bench.pack.PackCases;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Pack, unpack and a contiguous copy of one {@link PackCases} case, each call on the next of
 * {@code sets} copies of the case's buffers. With one set (as in {@link PackBenchmark}) the buffers
 * stay in the caches; with several whose sum passes the last-level cache, every call reads and
 * writes main memory, as a message's buffers are in a ping-pong, where each rank's send and receive
 * buffers, the other rank's and the kernel's socket buffers all take their turn in the cache.
 *
 * <p>Why it exists: in {@code jspin bench pingpong} the 4 MiB vector case packs far slower than in
 * {@link PackBenchmark} (docs/PERFORMANCE.md). This separates what the kernel does from where
 * its bytes come from. Out of cache, pack and copy both fall, and their ratio says how much of
 * memory's rate the layout leaves: a vector of 64 B blocks at 128 B stride spans twice its payload,
 * and a pack at about half a copy's rate suggests that the lines in the gaps are fetched too (the
 * hardware prefetchers' doing, presumably).
 *
 * <p>{@code java -jar bench/target/benchmarks.jar ColdPackBenchmark -p sets=1,16}
 */
public class ColdPackBenchmark extends ThroughputBenchmark {
    /** The case to measure (a name from {@link PackCases}). */
    @Param({"vector_d_64B", "vector_d_512B"})
    public String caseName;

    /**
     * Copies of the case's buffers taken in turn: 1 keeps them cached; 16 of the 4 MiB vector cases
     * (16 MiB each: 8 MiB typed, 4 MiB packed, 4 MiB for the copy) make 256 MiB, far past a 32 MiB
     * last-level cache (4 sets were too few: docs/PERFORMANCE.md).
     */
    @Param({"1", "16"})
    public int sets;

    private CaseBuffers[] buffers;
    private int next;
    private long payload;

    /** Builds the case's buffer sets once per fork (each filled, so every page is touched). */
    @Setup(Level.Trial)
    public void setUp() {
        if (sets < 1) {
            throw new IllegalArgumentException("sets must be at least 1, not " + sets);
        }
        buffers = new CaseBuffers[sets];
        for (int i = 0; i < sets; i++) {
            buffers[i] = new CaseBuffers(PackCases.named(caseName));
        }
        payload = buffers[0].benchCase().payloadBytes();
    }

    /** Frees the native buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        for (CaseBuffers b : buffers) {
            b.close();
        }
    }

    /** @return buffer set {@code i} (for tests) */
    CaseBuffers set(int i) {
        return buffers[i];
    }

    private CaseBuffers take() {
        CaseBuffers b = buffers[next];
        next = next + 1 == buffers.length ? 0 : next + 1;
        return b;
    }

    /** Packs the whole message (typed to contiguous) of the next buffer set. */
    @Benchmark
    public long pack(PayloadBytes counter) {
        counter.bytes += payload;
        return take().pack();
    }

    /** Unpacks the whole message (contiguous to typed) of the next buffer set. */
    @Benchmark
    public long unpack(PayloadBytes counter) {
        counter.bytes += payload;
        return take().unpack();
    }

    /** One contiguous copy of the payload's size in the next buffer set: the ceiling for pack and unpack. */
    @Benchmark
    public long copy(PayloadBytes counter) {
        counter.bytes += payload;
        return take().copy();
    }
}
