package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/** Copies of variable-length runs (the leaf of irregular indexed and struct types). */
public final class Runs {
    private Runs() {
    }

    /** Packs runs {@code e0..e1-1} (run e: {@code lens[e]} bytes at {@code typed[at + disps[e]]}) to {@code packed[off..]}. */
    public static void gather(MemorySegment typed, long at, long[] disps, long[] lens, int e0, int e1,
            MemorySegment packed, long off) {
        for (int e = e0; e < e1; e++) {
            long len = lens[e];
            Words.copy(typed, at + disps[e], packed, off, len);
            off += len;
        }
    }

    /** Unpacks {@code packed[off..]} into runs {@code e0..e1-1} at {@code typed[at + disps[e]]}. */
    public static void scatter(MemorySegment packed, long off, MemorySegment typed, long at, long[] disps,
            long[] lens, int e0, int e1) {
        for (int e = e0; e < e1; e++) {
            long len = lens[e];
            Words.copy(packed, off, typed, at + disps[e], len);
            off += len;
        }
    }
}
