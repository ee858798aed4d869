package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * {@link HeapSafeKernel} for listed blocks: the vector kernel between native segments, the scalar
 * one as soon as a heap segment is involved.
 */
record HeapSafeListKernel(ListKernel vector, ListKernel scalar) implements ListKernel {
    @Override
    public void gather(MemorySegment typed, long at, long[] disps, int e0, MemorySegment packed, long off, int n) {
        if (typed.isNative() && packed.isNative()) {
            vector.gather(typed, at, disps, e0, packed, off, n);
        } else {
            scalar.gather(typed, at, disps, e0, packed, off, n);
        }
    }

    @Override
    public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, long[] disps, int e0, int n) {
        if (typed.isNative() && packed.isNative()) {
            vector.scatter(packed, off, typed, at, disps, e0, n);
        } else {
            scalar.scatter(packed, off, typed, at, disps, e0, n);
        }
    }
}
