package org.jspin.datatype.kernel;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * Copies of one contiguous piece whose length is known only at run time: the runs of irregular
 * types and the unspecialised fallback kernels (compiled kernels emit their moves directly, see
 * {@link Move}). Pieces of 16 bytes and more between native segments use SIMD vectors when the
 * Vector API is present; otherwise long pieces use one bulk copy.
 */
final class Words {
    /**
     * Whether {@code jdk.incubator.vector} is in the boot layer (the JVM was started with it), unless
     * {@code -Djspin.kernels.scalar=true} asks for the scalar kernels.
     */
    static final boolean VECTORS = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !KernelSettings.current().scalar();

    private Words() {
    }

    /** Copies one piece; vectors only between native segments (see {@link HeapSafeKernel} for why). */
    static void copy(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        if (VECTORS && len >= 16 && src.isNative() && dst.isNative()) {
            VectorWords.copy(src, s, dst, d, len);
        } else if (len >= Move.BULK_SCALAR) {
            MemorySegment.copy(src, s, dst, d, len);
        } else if (len >= 8) {
            copyLongs(src, s, dst, d, len);
        } else {
            copyTail(src, s, dst, d, len);
        }
    }

    /** {@code len >= 8}: longs, the last one overlapping the previous when len is not a multiple of 8. */
    private static void copyLongs(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + 8 <= len; j += 8) {
            dst.set(JAVA_LONG_UNALIGNED, d + j, src.get(JAVA_LONG_UNALIGNED, s + j));
        }
        if (j < len) { // re-copies a few bytes of this same piece: never touches bytes outside it
            dst.set(JAVA_LONG_UNALIGNED, d + len - 8, src.get(JAVA_LONG_UNALIGNED, s + len - 8));
        }
    }

    /** {@code len < 8}. */
    private static void copyTail(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        if (len >= 4) {
            dst.set(JAVA_INT_UNALIGNED, d, src.get(JAVA_INT_UNALIGNED, s));
            dst.set(JAVA_INT_UNALIGNED, d + len - 4, src.get(JAVA_INT_UNALIGNED, s + len - 4));
        } else if (len >= 2) {
            dst.set(JAVA_SHORT_UNALIGNED, d, src.get(JAVA_SHORT_UNALIGNED, s));
            dst.set(JAVA_SHORT_UNALIGNED, d + len - 2, src.get(JAVA_SHORT_UNALIGNED, s + len - 2));
        } else if (len == 1) {
            dst.set(JAVA_BYTE, d, src.get(JAVA_BYTE, s));
        }
    }
}
