package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Keeps heap segments out of the SIMD kernels: copies between native segments go to the vector
 * kernel, any copy that touches a heap segment to the scalar one.
 *
 * <p>Why: the Vector API's loads and stores are JDK methods shared by every caller, and their
 * profiles learn which kinds of segment they saw. Once a few 16-byte copies from heap arrays had
 * gone through them (a reduction of two longs, say), the vector kernel ran several times slower for
 * the rest of the process, its loads no longer compiled to vector instructions but allocating an
 * array each (docs/PERFORMANCE.md). Copies of heap arrays are the small ones (the large buffers of a program that
 * cares are native), so the scalar path costs them little.
 */
record HeapSafeKernel(CopyKernel vector, CopyKernel scalar) implements CopyKernel {
    @Override
    public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
        if (typed.isNative() && packed.isNative()) {
            vector.gather(typed, at, packed, off, n);
        } else {
            scalar.gather(typed, at, packed, off, n);
        }
    }

    @Override
    public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
        if (typed.isNative() && packed.isNative()) {
            vector.scatter(packed, off, typed, at, n);
        } else {
            scalar.scatter(packed, off, typed, at, n);
        }
    }
}
