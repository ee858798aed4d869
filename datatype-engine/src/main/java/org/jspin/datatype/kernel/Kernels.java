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

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final Map<Shape, CopyKernel> CACHE = new ConcurrentHashMap<>();
    private static final int VECTOR_WIDTH = Words.VECTORS ? VectorSpeciesHolder.PREFERRED : 0;
    /** {@code -Djspin.kernels.dynamic=true} uses only the unspecialised kernels (tests cover them so). */
    private static final boolean DYNAMIC_ONLY = Boolean.getBoolean("jspin.kernels.dynamic");

    private Kernels() {
    }

    /** @return whether SIMD (Vector API) copies are in use */
    public static boolean vectorized() {
        return Words.VECTORS;
    }

    /** @return the kernel for blocks of {@code len} bytes, {@code stride} bytes apart */
    public static CopyKernel blocks(long len, long stride) {
        return specialised(new Shape(stride, new long[] {0}, new long[] {len}),
                () -> new DynamicKernels.Blocks(len, stride));
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
        return specialised(new Shape(stride, disps.clone(), lens.clone()),
                () -> new DynamicKernels.Pattern(disps.clone(), lens.clone(), size, stride));
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
        List<Move> moves = new ArrayList<>();
        long packed = 0;
        for (int e = 0; e < s.disps.length; e++) {
            Move.piece(moves, s.disps[e], packed, s.lens[e], VECTOR_WIDTH);
            packed += s.lens[e];
        }
        try {
            return KernelCompiler.compile(LOOKUP, s.stride, packed, moves);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return fallback.get(); // e.g. a JVM without the class-file API's needs; stay correct
        }
    }

    /** A unit shape: runs at {@code disps} of {@code lens} bytes, units {@code stride} apart. */
    private record Shape(long stride, long[] disps, long[] lens) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && s.stride == stride && Arrays.equals(s.disps, disps)
                    && Arrays.equals(s.lens, lens);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(stride) * 31 + Arrays.hashCode(disps) * 17 + Arrays.hashCode(lens);
        }

        @Override
        public String toString() {
            return "shape(stride " + stride + ", disps " + Arrays.toString(disps) + ", lens " + Arrays.toString(lens)
                    + ")";
        }
    }
}
