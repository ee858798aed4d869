package org.jspin.datatype.kernel;

import java.util.List;

/**
 * One load-and-store of a compiled kernel's unit: {@code repeat} consecutive moves of {@code width}
 * bytes from typed offset {@code typedOff} and packed offset {@code packedOff} (relative to the
 * unit). Width 1, 2, 4, 8 is a scalar move, 16, 32, 64 a vector move, 0 a bulk copy of
 * {@code repeat} bytes.
 */
record Move(long typedOff, long packedOff, int width, long repeat) {
    Move {
        if (width > 0 && (repeat < 1 || repeat > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("a move loop runs 1 to 2^31-1 times, not " + repeat);
        }
    }

    /**
     * Without SIMD, pieces this long or longer are one bulk copy ({@link java.lang.foreign.MemorySegment#copy}):
     * it beats scalar longs from here on. With SIMD every piece is vector loads and stores: on AVX-512
     * the vector loop beat the bulk copy at every length measured, 4 MiB included (docs/PERFORMANCE.md).
     */
    static final long BULK_SCALAR = 128;
    /** Pieces this long are one bulk copy in any case: a move loop counts its iterations in an int. */
    static final long BULK_HUGE = 1L << 30;
    /**
     * Vectors of this width or wider copy a long piece best as a loop of vector moves; narrower ones
     * (AVX2's 32 bytes) leave a piece of more than {@link #unrolled} moves to one bulk copy, which
     * beat their loop on AVX2; on AVX-512 the 64-byte loop was the faster (docs/PERFORMANCE.md).
     */
    static final int LOOP_MIN_WIDTH = 64;
    /**
     * A piece of at most this many moves is unrolled; a longer one becomes a counted loop.
     *
     * <p>Not more, though a loop of 16 moves (1 KiB blocks) packs slower than its neighbours: unrolled
     * to 16 moves, the kernel sometimes stayed in C1's profiling tier, which runs the Vector API
     * without intrinsics (docs/PERFORMANCE.md): an unrolled unit takes one loop back edge where the
     * loop took 16, so the counters that promote it to C2 fill 16 times more slowly.
     */
    static final int UNROLL = 8;

    /**
     * @return the moves a piece may unroll to with vectors of {@code vectorWidth} bytes when a unit
     *         allows {@code unroll}: twice as many for vectors narrower than {@link #LOOP_MIN_WIDTH},
     *         which copy a long piece as one bulk copy rather than a loop: on AVX2 a 512 B block as
     *         sixteen unrolled moves beat a bulk copy per block (docs/PERFORMANCE.md), given the
     *         cursor's calls of at most 64 KiB (see {@code TypeCursor.BATCH_BYTES}).
     */
    static int unrolled(int vectorWidth, int unroll) {
        return vectorWidth >= 16 && vectorWidth < LOOP_MIN_WIDTH ? 2 * unroll : unroll;
    }

    /**
     * Appends the moves of one contiguous piece of {@code len} bytes, unrolled if there are at most
     * {@link #unrolled unrolled(vectorWidth, unroll)} of them. Pieces whose length is not a multiple
     * of the move width end with one move that overlaps the previous one: it re-copies bytes of the
     * same piece, so nothing outside the piece is touched.
     */
    static void piece(List<Move> out, long typedOff, long packedOff, long len, int vectorWidth, int unroll) {
        unroll = unrolled(vectorWidth, unroll);
        if ((vectorWidth < 16 && len >= BULK_SCALAR) || len >= BULK_HUGE
                || (vectorWidth >= 16 && vectorWidth < LOOP_MIN_WIDTH && len > (long) unroll * vectorWidth)) {
            out.add(new Move(typedOff, packedOff, 0, len));
            return;
        }
        int w;
        if (vectorWidth >= 16 && len >= 16) {
            w = len >= 64 && vectorWidth >= 64 ? 64 : len >= 32 && vectorWidth >= 32 ? 32 : 16;
        } else {
            w = len >= 8 ? 8 : len >= 4 ? 4 : len >= 2 ? 2 : 1;
        }
        long full = len / w;
        if (full <= unroll) {
            for (long k = 0; k < full; k++) {
                out.add(new Move(typedOff + k * w, packedOff + k * w, w, 1));
            }
        } else {
            out.add(new Move(typedOff, packedOff, w, full));
        }
        if (len % w != 0) {
            out.add(new Move(typedOff + len - w, packedOff + len - w, w, 1));
        }
    }
}
