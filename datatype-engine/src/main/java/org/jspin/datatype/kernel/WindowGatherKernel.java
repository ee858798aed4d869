package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packs small blocks that lie close together (8 or 16 bytes, less than twice their length apart: every
 * other element, the real parts of complex numbers) with 512-bit vectors: two 64-byte loads cover the
 * blocks of one 64-byte output, and one two-vector permute compresses them, so a store moves 64
 * bytes instead of one block. The last window's blocks, and all unpacking, go to the scalar-move
 * kernel of the same shape: a permuted unpack would need masked stores, which are slow here, and
 * writing the gaps back is not allowed (nothing outside the type map is written).
 *
 * <p>Only loads run past a block, and only into the next window's blocks (so never outside the
 * checked type map). Loaded only when the JVM has {@code jdk.incubator.vector} and 512-bit vectors.
 */
final class WindowGatherKernel implements CopyKernel {
    private static final VectorSpecies<Long> L512 = LongVector.SPECIES_512;

    private final long stride;
    private final int blocksPerWindow;
    private final long windowStride;
    private final VectorShuffle<Long> shuffle;
    private final CopyKernel blocks;

    /** Whether blocks of {@code len} bytes {@code stride} apart suit this kernel. */
    static boolean suits(long len, long stride) {
        // 32-byte blocks measured no faster this way than with one 32-byte move each
        return VectorSpeciesHolder.PREFERRED >= 64 && (len == 8 || len == 16) && stride > len
                && stride % 8 == 0 && (64 / len) * stride <= 128;
    }

    /** @param blocks the kernel of the same shape for the tail and for unpacking */
    WindowGatherKernel(long len, long stride, CopyKernel blocks) {
        this.stride = stride;
        this.blocksPerWindow = (int) (64 / len);
        this.windowStride = blocksPerWindow * stride;
        this.blocks = blocks;
        int words = (int) (len / 8);
        int[] lanes = new int[8];
        for (int q = 0; q < 8; q++) { // output long q comes from word (q % words) of block (q / words)
            lanes[q] = (int) ((q / words) * (stride / 8) + q % words);
        }
        this.shuffle = VectorShuffle.fromArray(L512, lanes, 0);
    }

    @Override
    public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
        int windows = n / blocksPerWindow - 1; // the last window is left to the tail: no load past the data
        for (int w = 0; w < windows; w++) {
            long a = at + w * windowStride;
            LongVector lo = LongVector.fromMemorySegment(L512, typed, a, VectorSpeciesHolder.ORDER);
            LongVector hi = LongVector.fromMemorySegment(L512, typed, a + 64, VectorSpeciesHolder.ORDER);
            lo.rearrange(shuffle, hi).intoMemorySegment(packed, off + 64L * w, VectorSpeciesHolder.ORDER);
        }
        int done = Math.max(0, windows) * blocksPerWindow;
        blocks.gather(typed, at + done * stride, packed, off + 64L * Math.max(0, windows), n - done);
    }

    @Override
    public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
        blocks.scatter(packed, off, typed, at, n);
    }
}
