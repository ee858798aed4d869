package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Copies {@code n} equal-length blocks listed by displacement (an indexed-block type with irregular
 * displacements: particles scattered to their slots, a random index list) between a typed buffer
 * and consecutive packed bytes. Specialised at commit to the block length ({@link Kernels#listed}).
 */
public interface ListKernel {
    /** Packs blocks {@code e0..e0+n-1}, block e at {@code typed[at + disps[e]]}, to {@code packed[off..]}. */
    void gather(MemorySegment typed, long at, long[] disps, int e0, MemorySegment packed, long off, int n);

    /** Unpacks {@code packed[off..]} into blocks {@code e0..e0+n-1} at {@code typed[at + disps[e]]}. */
    void scatter(MemorySegment packed, long off, MemorySegment typed, long at, long[] disps, int e0, int n);
}
