package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

import jdk.incubator.vector.ByteVector;

/**
 * SIMD copies of one piece of 16 bytes or more whose length is only known at run time (the runs of
 * irregular types): whole vectors, then one last vector ending at the piece's end (overlapping the
 * previous one, inside the same piece). Where vectors are narrower than {@link Move#LOOP_MIN_WIDTH}
 * a piece of more than {@link Move#UNROLL} of them is one bulk copy (compiled kernels unroll up to
 * {@link Move#unrolled} moves; here they would be a loop, slower than the bulk copy on AVX2:
 * docs/PERFORMANCE.md). Each width has its own
 * method naming its species as a static final, so the vector operations are intrinsified even where
 * the JIT does not inline this class; each loaded vector is cast to its species' class before it is
 * stored, as in the compiled kernels ({@link VectorSpeciesHolder#T32}).
 * Loaded only when the JVM has {@code jdk.incubator.vector}.
 */
final class VectorWords {
    private VectorWords() {
    }

    static void copy(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        int w = VectorSpeciesHolder.PREFERRED;
        if (w < Move.LOOP_MIN_WIDTH && len > (long) Move.UNROLL * w) {
            MemorySegment.copy(src, s, dst, d, len);
        } else if (len < 32 || VectorSpeciesHolder.PREFERRED < 32) {
            copy16(src, s, dst, d, len);
        } else if (len < 64 || VectorSpeciesHolder.PREFERRED < 64) {
            copy32(src, s, dst, d, len);
        } else {
            copy64(src, s, dst, d, len);
        }
    }

    private static void copy16(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + 16 <= len; j += 16) {
            ((ByteVector) VectorSpeciesHolder.T16.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V16, src, s + j, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + j, VectorSpeciesHolder.ORDER);
        }
        if (j < len) {
            long last = len - 16;
            ((ByteVector) VectorSpeciesHolder.T16.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V16, src, s + last, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + last, VectorSpeciesHolder.ORDER);
        }
    }

    private static void copy32(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + 32 <= len; j += 32) {
            ((ByteVector) VectorSpeciesHolder.T32.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V32, src, s + j, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + j, VectorSpeciesHolder.ORDER);
        }
        if (j < len) {
            long last = len - 32;
            ((ByteVector) VectorSpeciesHolder.T32.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V32, src, s + last, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + last, VectorSpeciesHolder.ORDER);
        }
    }

    private static void copy64(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + 64 <= len; j += 64) {
            ((ByteVector) VectorSpeciesHolder.T64.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V64, src, s + j, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + j, VectorSpeciesHolder.ORDER);
        }
        if (j < len) {
            long last = len - 64;
            ((ByteVector) VectorSpeciesHolder.T64.cast(
                    ByteVector.fromMemorySegment(VectorSpeciesHolder.V64, src, s + last, VectorSpeciesHolder.ORDER)))
                    .intoMemorySegment(dst, d + last, VectorSpeciesHolder.ORDER);
        }
    }
}
