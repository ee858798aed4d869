package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packs every other 4- or 8-byte element (blocks of 4 or 8 bytes at twice their length apart: the
 * real parts of complex floats or doubles) with 256-bit vectors: one 32-byte load covers four
 * 4-byte or two 8-byte blocks, one permute ({@code vpermd}) gathers them into its low 16 bytes, and
 * one 32-byte store writes the vector. Its upper 16 bytes are not packed data yet; the next window's
 * store, or the tail, overwrites them, so the windows stop where a store would reach past the
 * call's packed bytes, and the blocks after them, as all unpacking, go to the scalar-move kernel of
 * the same shape. A load reads the gap after its window's last block, which lies before the next
 * block and so inside the checked footprint.
 *
 * <p>For AVX2 machines (256-bit vectors, where {@link WindowGatherKernel}'s 512-bit windows do not
 * run). Loaded only when the JVM has {@code jdk.incubator.vector}.
 */
final class EvenLaneGatherKernel implements CopyKernel, GatherOverBlocks {
    private static final VectorSpecies<Integer> I256 = IntVector.SPECIES_256;
    /** The loaded vector's class, a constant for C2 (see {@link VectorSpeciesHolder#T32}). */
    private static final Class<?> T = I256.vectorType();
    /** Packed bytes per window: the low half of the stored vector. */
    private static final int OUT = 16;

    private final long len;
    private final int blocksPerWindow;
    private final VectorShuffle<Integer> shuffle;
    private final CopyKernel blocks;

    /**
     * Whether blocks of {@code len} bytes {@code stride} apart suit this kernel on this machine: a
     * shape it {@linkplain #packs packs}, where 256-bit vectors are the widest.
     */
    static boolean suits(long len, long stride) {
        return VectorSpeciesHolder.PREFERRED == 32 && packs(len, stride);
    }

    /**
     * Whether this kernel packs blocks of {@code len} bytes {@code stride} apart correctly, on any
     * machine with the Vector API (where 256-bit vectors are not native it is merely slow).
     */
    static boolean packs(long len, long stride) {
        return (len == 4 || len == 8) && stride == 2 * len;
    }

    /**
     * @param len    block bytes, 4 or 8 ({@link #suits})
     * @param blocks the kernel of the same shape for the tail and for unpacking
     */
    EvenLaneGatherKernel(long len, CopyKernel blocks) {
        this.len = len;
        this.blocksPerWindow = (int) (OUT / len);
        this.blocks = blocks;
        // int lanes of the window: 4 B blocks are lanes 0, 2, 4, 6; 8 B blocks lanes 0-1 and 4-5;
        // the upper four output lanes repeat the lower ones (written, then overwritten)
        int[] lanes = len == 4 ? new int[] {0, 2, 4, 6, 0, 2, 4, 6} : new int[] {0, 1, 4, 5, 0, 1, 4, 5};
        this.shuffle = VectorShuffle.fromArray(I256, lanes, 0);
    }

    @Override
    public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
        // window w stores packed[off + 16w, off + 16w + 32): it must end within the n * len bytes
        long bytes = n * len;
        long windows = bytes < 2 * OUT ? 0 : (bytes - 2 * OUT) / OUT + 1;
        long typedWindow = 2L * OUT;
        for (long w = 0; w < windows; w++) {
            IntVector v = (IntVector) T.cast(IntVector.fromMemorySegment(I256, typed, at + w * typedWindow,
                    VectorSpeciesHolder.ORDER));
            v.rearrange(shuffle).intoMemorySegment(packed, off + w * OUT, VectorSpeciesHolder.ORDER);
        }
        int done = (int) (windows * blocksPerWindow);
        blocks.gather(typed, at + done * 2L * len, packed, off + done * len, n - done);
    }

    /**
     * Written out here, as in {@link WindowGatherKernel}, rather than inherited: a shared method
     * would share one type profile for this call among every kernel class behind it.
     */
    @Override
    public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
        blocks.scatter(packed, off, typed, at, n);
    }

    @Override
    public CopyKernel blocks() {
        return blocks;
    }
}
