package org.jspin.bench.jmh;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.kernel.CopyKernel;
import org.jspin.datatype.kernel.Kernels;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the copy kernel costs for one shape, 64-byte blocks at a 128-byte stride over a 4 MiB
 * payload (the anchors' {@code vector 64 B} case): the two hand-written ways to gather a block
 * with the FFM API, the kernel the engine compiles for this shape called directly, and the
 * engine's full pack (cursor included). The gap between the first two is why the kernel choice
 * matters; the gap between the kernel and the pack is the cost of the engine's walk around it.
 */
public class KernelBenchmark extends ThroughputBenchmark {
    /** Block length in bytes. */
    public static final long BLOCK = 64;
    /** Distance between block starts in the typed buffer. */
    public static final long STRIDE = 2 * BLOCK;
    /** Payload in bytes. */
    public static final long PAYLOAD = 4L << 20;
    /** Number of blocks. */
    public static final long BLOCKS = PAYLOAD / BLOCK;

    private Arena arena;
    private MemorySegment typed;
    private MemorySegment packed;
    private Datatype vector;
    private CopyKernel kernel;

    /** Allocates the buffers, commits the equivalent vector type and fetches the engine's kernel. */
    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        typed = arena.allocate((BLOCKS - 1) * STRIDE + BLOCK, 64);
        packed = arena.allocate(PAYLOAD, 64);
        for (long i = 0; i + Long.BYTES <= typed.byteSize(); i += Long.BYTES) {
            typed.set(JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
        }
        long e = Datatype.DOUBLE.size();
        vector = Datatype.vector(BLOCKS, BLOCK / e, STRIDE / e, Datatype.DOUBLE).commit();
        kernel = Kernels.blocks(BLOCK, STRIDE);
    }

    /** Frees the buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** One {@link MemorySegment#copy} per block: a bulk-copy call (and its checks) for 64 bytes. */
    @Benchmark
    public long copyPerBlock(PayloadBytes counter) {
        MemorySegment src = typed;
        MemorySegment dst = packed;
        for (long i = 0; i < BLOCKS; i++) {
            MemorySegment.copy(src, i * STRIDE, dst, i * BLOCK, BLOCK);
        }
        counter.bytes += PAYLOAD;
        return dst.get(JAVA_LONG_UNALIGNED, PAYLOAD - Long.BYTES);
    }

    /** Eight unrolled long loads and stores per block, which the JIT keeps in registers. */
    @Benchmark
    public long longsPerBlock(PayloadBytes counter) {
        MemorySegment src = typed;
        MemorySegment dst = packed;
        for (long i = 0; i < BLOCKS; i++) {
            long s = i * STRIDE;
            long d = i * BLOCK;
            dst.set(JAVA_LONG_UNALIGNED, d, src.get(JAVA_LONG_UNALIGNED, s));
            dst.set(JAVA_LONG_UNALIGNED, d + 8, src.get(JAVA_LONG_UNALIGNED, s + 8));
            dst.set(JAVA_LONG_UNALIGNED, d + 16, src.get(JAVA_LONG_UNALIGNED, s + 16));
            dst.set(JAVA_LONG_UNALIGNED, d + 24, src.get(JAVA_LONG_UNALIGNED, s + 24));
            dst.set(JAVA_LONG_UNALIGNED, d + 32, src.get(JAVA_LONG_UNALIGNED, s + 32));
            dst.set(JAVA_LONG_UNALIGNED, d + 40, src.get(JAVA_LONG_UNALIGNED, s + 40));
            dst.set(JAVA_LONG_UNALIGNED, d + 48, src.get(JAVA_LONG_UNALIGNED, s + 48));
            dst.set(JAVA_LONG_UNALIGNED, d + 56, src.get(JAVA_LONG_UNALIGNED, s + 56));
        }
        counter.bytes += PAYLOAD;
        return dst.get(JAVA_LONG_UNALIGNED, PAYLOAD - Long.BYTES);
    }

    /**
     * The engine's kernel for this shape ({@link Kernels#blocks}, SIMD moves if the Vector API is
     * resolved), called directly: the copy loop without the cursor around it.
     */
    @Benchmark
    public long engineKernel(PayloadBytes counter) {
        kernel.gather(typed, 0, packed, 0, (int) BLOCKS);
        counter.bytes += PAYLOAD;
        return packed.get(JAVA_LONG_UNALIGNED, PAYLOAD - Long.BYTES);
    }

    /** The engine's pack of the equivalent vector type, with whatever kernel commit chose. */
    @Benchmark
    public long enginePack(PayloadBytes counter) {
        long n = vector.pack(1, typed, packed);
        counter.bytes += PAYLOAD;
        return n + packed.get(JAVA_LONG_UNALIGNED, PAYLOAD - Long.BYTES);
    }
}
