package org.jspin.datatype.lower;

import org.jspin.datatype.kernel.CopyKernels;

/** Picks a copy kernel at commit from the shape of a leaf parent's blocks. */
final class KernelChoice {
    /** Blocks at least this long are copied with one bulk copy each. */
    static final long BULK_THRESHOLD = 256;

    private KernelChoice() {
    }

    static int forBlock(long len) {
        if (len >= BULK_THRESHOLD) {
            return CopyKernels.BULK;
        }
        return switch ((int) len) {
            case 1 -> CopyKernels.W1;
            case 2 -> CopyKernels.W2;
            case 4 -> CopyKernels.W4;
            case 8 -> CopyKernels.W8;
            case 16 -> CopyKernels.W16;
            case 24 -> CopyKernels.W24;
            case 32 -> CopyKernels.W32;
            case 64 -> CopyKernels.W64;
            default -> len % 8 == 0 ? CopyKernels.LONGS : CopyKernels.SMALL;
        };
    }

    static int forRuns(long gcd, long maxLen, long meanLen) {
        if (meanLen >= BULK_THRESHOLD) {
            return CopyKernels.BULK;
        }
        return gcd % 8 == 0 ? CopyKernels.LONGS : CopyKernels.SMALL;
    }
}
