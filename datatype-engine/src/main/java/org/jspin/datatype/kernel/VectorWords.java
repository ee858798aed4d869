package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * SIMD copies of one piece of 16 bytes or more: whole vectors, then one last vector ending at the
 * piece's end (overlapping the previous one, inside the same piece). Loaded only when the JVM has
 * {@code jdk.incubator.vector}; the widest vector is the platform's preferred one.
 */
final class VectorWords {
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final VectorSpecies<Byte> V16 = ByteVector.SPECIES_128;
    private static final VectorSpecies<Byte> V32 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Byte> WIDE = ByteVector.SPECIES_PREFERRED;
    private static final int W = WIDE.vectorByteSize();

    private VectorWords() {
    }

    static void copy(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        if (len < 32 || W < 32) {
            copyWith(V16, 16, src, s, dst, d, len);
        } else if (len < W || W < 64) {
            copyWith(V32, 32, src, s, dst, d, len);
        } else {
            copyWith(WIDE, W, src, s, dst, d, len);
        }
    }

    private static void copyWith(VectorSpecies<Byte> species, int width, MemorySegment src, long s,
            MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + width <= len; j += width) {
            ByteVector.fromMemorySegment(species, src, s + j, ORDER).intoMemorySegment(dst, d + j, ORDER);
        }
        if (j < len) {
            long last = len - width;
            ByteVector.fromMemorySegment(species, src, s + last, ORDER).intoMemorySegment(dst, d + last, ORDER);
        }
    }
}
