package org.jspin.datatype.kernel;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Chooses and builds the copy kernel of a shape, at commit. A shape's kernel is compiled
 * ({@link KernelCompiler}) into a class whose loop is specialised to exactly that block length,
 * stride and piece layout. Kernels are cached by shape, so the types of a program share them; past
 * {@link #MAX_SPECIALISED} shapes, for patterns of more than {@link #MAX_PIECES} runs, or if a class
 * cannot be defined, the unspecialised {@link DynamicKernels} take over: correct, somewhat slower.
 */
public final class Kernels {
    /** Distinct specialised shapes kept; each is one small hidden class. */
    static final int MAX_SPECIALISED = 4096;
    /** Most runs per element a pattern kernel unrolls. */
    static final int MAX_PIECES = 16;
    /**
     * Most moves in one compiled unit. A bigger kernel is more than the JIT compiles well: units of 8
     * or 16 runs of 512 B (eight 64-byte moves each) were left to the interpreter for a while (C1: "out
     * of virtual registers", "method and/or inlining is too large"), the 16-run one for good
     * (docs/PERFORMANCE.md); so was one 2 KiB block unrolled into 32 moves (see {@link Move#UNROLL}).
     * Past this many moves, pieces unroll less, then loop.
     */
    static final int MAX_UNIT_MOVES = 72;

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final Map<Shape, CopyKernel> CACHE = new ConcurrentHashMap<>();
    private static final Map<Long, ListKernel> LISTED = new ConcurrentHashMap<>();
    private static final int VECTOR_WIDTH = Words.VECTORS ? VectorSpeciesHolder.PREFERRED : 0;
    /** {@code -Djspin.kernels.dynamic=true} uses only the unspecialised kernels (tests cover them so). */
    private static final boolean DYNAMIC_ONLY = KernelSettings.current().dynamicOnly();

    private Kernels() {
    }

    /**
     * @return the kernel that {@code k} runs between native segments (itself, unless it keeps heap
     *         segments away from SIMD copies, {@link HeapSafeKernel})
     */
    public static CopyKernel forNativeSegments(CopyKernel k) {
        return k instanceof HeapSafeKernel h ? h.vector() : k;
    }

    /**
     * @return the block kernel under {@code k} as it runs between native segments: {@link
     *         #forNativeSegments}, then through any SIMD window gather to the kernel it leaves the
     *         tail and unpacking to (a compiled kernel, unless the fallback was chosen)
     */
    public static CopyKernel blockKernel(CopyKernel k) {
        CopyKernel b = forNativeSegments(k);
        while (b instanceof GatherOverBlocks g) {
            b = g.blocks();
        }
        return b;
    }

    /** @return the widest move of the compiled kernels in bytes, or 0 without SIMD copies */
    static int vectorWidth() {
        return VECTOR_WIDTH;
    }

    /** @return whether SIMD (Vector API) copies are in use */
    public static boolean vectorized() {
        return Words.VECTORS;
    }

    /** @return the kernel for blocks of {@code len} bytes, {@code stride} bytes apart */
    public static CopyKernel blocks(long len, long stride) {
        CopyKernel k = specialisedBlocks(len, stride, len);
        if (Words.VECTORS && !DYNAMIC_ONLY && WindowGatherKernel.suits(len, stride)) {
            k = WindowGatherKernel.of(len, stride, k);
        } else if (Words.VECTORS && !DYNAMIC_ONLY && EvenLaneGatherKernel.suits(len, stride)) {
            k = new EvenLaneGatherKernel(len, k);
        }
        return heapSafe(k, new DynamicKernels.Blocks(len, stride, len));
    }

    /**
     * @return the kernel for blocks of {@code len} bytes, {@code stride} typed bytes apart and
     *         {@code packedStride} packed bytes apart (a transposed walk of a two-level vector)
     */
    public static CopyKernel blocks(long len, long stride, long packedStride) {
        return heapSafe(specialisedBlocks(len, stride, packedStride),
                new DynamicKernels.Blocks(len, stride, packedStride));
    }

    private static CopyKernel specialisedBlocks(long len, long stride, long packedStride) {
        return specialised(new Shape(stride, packedStride, new long[] {0}, new long[] {len}),
                () -> new DynamicKernels.Blocks(len, stride, packedStride));
    }

    /**
     * @return {@code k}, or where it may run SIMD copies, {@code k} for native segments and
     *         {@code scalar} for copies that touch a heap segment ({@link HeapSafeKernel})
     */
    private static CopyKernel heapSafe(CopyKernel k, CopyKernel scalar) {
        boolean simd = Words.VECTORS && !(k instanceof DynamicKernels.Blocks) && !(k instanceof DynamicKernels.Pattern);
        return simd ? new HeapSafeKernel(k, scalar) : k; // the dynamic kernels decide piece by piece (Words)
    }

    /**
     * @return the kernel for elements {@code stride} apart, each made of runs {@code lens[e]} bytes
     *         at {@code disps[e]} (relative to the element), or null if the pattern has too many runs
     */
    public static CopyKernel pattern(long[] disps, long[] lens, long stride) {
        if (disps.length > MAX_PIECES) {
            return null;
        }
        long size = Arrays.stream(lens).sum();
        return heapSafe(specialised(new Shape(stride, size, disps.clone(), lens.clone()),
                () -> new DynamicKernels.Pattern(disps.clone(), lens.clone(), size, stride)),
                new DynamicKernels.Pattern(disps.clone(), lens.clone(), size, stride));
    }

    private static CopyKernel specialised(Shape shape, Supplier<CopyKernel> fallback) {
        CopyKernel k = CACHE.get(shape);
        if (k != null) {
            return k;
        }
        if (DYNAMIC_ONLY || CACHE.size() >= MAX_SPECIALISED) {
            return fallback.get();
        }
        return CACHE.computeIfAbsent(shape, s -> compile(s, fallback));
    }

    private static CopyKernel compile(Shape s, Supplier<CopyKernel> fallback) {
        List<Move> moves = plan(s.disps, s.lens, Move.UNROLL);
        if (moves == null) {
            return fallback.get();
        }
        try {
            return KernelCompiler.strided(LOOKUP, s.stride, s.packedStride, moves);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return fallback.get(); // e.g. a JVM without the class-file API's needs; stay correct
        }
    }

    /**
     * The moves of a unit of runs {@code lens} at {@code disps}, each piece unrolled up to
     * {@code unroll} moves, or less until the unit holds at most {@link #MAX_UNIT_MOVES}.
     *
     * @return the moves, or null if even a loop per piece leaves more than that
     */
    static List<Move> plan(long[] disps, long[] lens, int unroll) {
        for (int u = unroll; ; u /= 2) {
            List<Move> moves = new ArrayList<>();
            long packed = 0;
            for (int e = 0; e < disps.length; e++) {
                Move.piece(moves, disps[e], packed, lens[e], VECTOR_WIDTH, u);
                packed += lens[e];
            }
            if (moves.size() <= MAX_UNIT_MOVES) {
                return moves;
            }
            if (u == 1) {
                return null;
            }
        }
    }

    /**
     * @return the kernel for blocks of {@code len} bytes at listed displacements (an indexed-block
     *         type whose displacements follow no stride)
     */
    public static ListKernel listed(long len) {
        ListKernel k = LISTED.get(len);
        if (k != null) {
            return k;
        }
        if (DYNAMIC_ONLY || LISTED.size() >= MAX_SPECIALISED) {
            return new DynamicKernels.Listed(len);
        }
        return LISTED.computeIfAbsent(len, l -> {
            List<Move> moves = new ArrayList<>();
            Move.piece(moves, 0, 0, l, VECTOR_WIDTH, Move.UNROLL);
            try {
                ListKernel compiled = KernelCompiler.listed(LOOKUP, l, moves);
                return Words.VECTORS ? new HeapSafeListKernel(compiled, new DynamicKernels.Listed(l)) : compiled;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return new DynamicKernels.Listed(l);
            }
        });
    }

    /**
     * A unit shape: runs at {@code disps} of {@code lens} bytes, units {@code stride} typed bytes and
     * {@code packedStride} packed bytes apart.
     */
    private record Shape(long stride, long packedStride, long[] disps, long[] lens) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && s.stride == stride && s.packedStride == packedStride
                    && Arrays.equals(s.disps, disps) && Arrays.equals(s.lens, lens);
        }

        @Override
        public int hashCode() {
            return (Long.hashCode(stride) * 31 + Long.hashCode(packedStride)) * 31 + Arrays.hashCode(disps) * 17
                    + Arrays.hashCode(lens);
        }

        @Override
        public String toString() {
            return "shape(stride " + stride + ", packed stride " + packedStride + ", disps " + Arrays.toString(disps)
                    + ", lens " + Arrays.toString(lens) + ")";
        }
    }
}
