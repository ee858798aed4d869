package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The unspecialised kernels: the same loops with the shape in instance fields. Used when no
 * specialised class can be defined (the shape cache is full, or hidden classes are unavailable), and
 * for the variable-length runs of irregular indexed types.
 */
final class DynamicKernels {
    private DynamicKernels() {
    }

    /** Blocks of {@code len} bytes, {@code stride} typed and {@code packedStride} packed bytes apart. */
    record Blocks(long len, long stride, long packedStride) implements CopyKernel {
        @Override
        public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
            for (int i = 0; i < n; i++) {
                Words.copy(typed, at + stride * i, packed, off + packedStride * i, len);
            }
        }

        @Override
        public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
            for (int i = 0; i < n; i++) {
                Words.copy(packed, off + packedStride * i, typed, at + stride * i, len);
            }
        }
    }

    /** Elements of runs ({@code lens[e]} bytes at {@code disps[e]}), {@code stride} apart. */
    record Pattern(long[] disps, long[] lens, long size, long stride) implements CopyKernel {
        @Override
        public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
            for (int i = 0; i < n; i++) {
                Runs.gather(typed, at + stride * i, disps, lens, 0, disps.length, packed, off + size * i);
            }
        }

        @Override
        public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
            for (int i = 0; i < n; i++) {
                Runs.scatter(packed, off + size * i, typed, at + stride * i, disps, lens, 0, disps.length);
            }
        }
    }

    /** Blocks of {@code len} bytes at listed displacements. */
    record Listed(long len) implements ListKernel {
        @Override
        public void gather(MemorySegment typed, long at, long[] disps, int e0, MemorySegment packed, long off, int n) {
            for (int i = 0; i < n; i++) {
                Words.copy(typed, at + disps[e0 + i], packed, off + len * i, len);
            }
        }

        @Override
        public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, long[] disps, int e0,
                int n) {
            for (int i = 0; i < n; i++) {
                Words.copy(packed, off + len * i, typed, at + disps[e0 + i], len);
            }
        }
    }
}
