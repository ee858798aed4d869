package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Copies {@code n} equally spaced units between a typed buffer and consecutive packed bytes. A unit
 * is one block of a vector (a fixed number of contiguous bytes) or one element of a small fixed
 * pattern (a few runs at fixed offsets). Implementations are specialised at commit to the unit's
 * shape and spacing ({@link Kernels}); the cursor calls one per batch of units, never per unit.
 *
 * <p>Addresses have been checked by the caller; implementations do not allocate.
 */
public interface CopyKernel {
    /** Packs units {@code 0..n-1}, unit i at {@code typed[at + i * stride]}, to {@code packed[off..]}. */
    void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n);

    /** Unpacks {@code packed[off..]} into units {@code 0..n-1}, unit i at {@code typed[at + i * stride]}. */
    void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n);
}
