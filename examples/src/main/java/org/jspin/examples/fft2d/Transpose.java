package org.jspin.examples.fft2d;

import org.jspin.datatype.Datatype;

/**
 * The datatypes of the 2D FFT's transpose, as DDTBench's FFT2D builds them (the receive type is the
 * one in {@code ../shared/layouts/fft2d_recv_P*_N*.json}). Each rank holds N/P rows of the N x N
 * complex matrix (16 bytes a value). To peer j it sends its block of columns [j·N/P, (j+1)·N/P): N/P
 * rows of N/P values, a row of the matrix apart. From peer i it receives such a block and writes it
 * transposed at column i·N/P of its own rows: each received value of the block's row r lands in
 * column r, so a block's row becomes a column (a vector with a stride of one matrix row, resized to
 * one value so that the next one starts 16 bytes on).
 */
final class Transpose {
    /** One double-complex value. */
    static final Datatype COMPLEX = Datatype.contiguous(2, Datatype.DOUBLE).commit();

    private Transpose() {
    }

    /** @return what a rank sends to each peer: its N/P x N/P block of columns */
    static Datatype send(int n, int p) {
        int b = n / p;
        return Datatype.vector(b, b, n, COMPLEX).commit();
    }

    /** @return what a rank receives from each peer: the block, written transposed (DDTBench's FFT2D_recv) */
    static Datatype recv(int n, int p) {
        int b = n / p;
        return Datatype.contiguous(b, Datatype.resized(0, 16, Datatype.vector(b, 1, n, COMPLEX))).commit();
    }
}
