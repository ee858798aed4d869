package org.jspin.examples.halo2d;

/** The five-point Jacobi update, shared by the distributed and the serial run so both round alike. */
final class Stencil {
    private Stencil() {
    }

    /** Writes {@code next} for rows [r0, r0+rows) and columns [c0, c0+cols) of a row-major array of width {@code w}. */
    static void sweep(double[] cur, double[] next, int w, int r0, int rows, int c0, int cols) {
        for (int i = r0; i < r0 + rows; i++) {
            int row = i * w;
            for (int j = c0; j < c0 + cols; j++) {
                int k = row + j;
                next[k] = 0.25 * (cur[k - w] + cur[k + w] + cur[k - 1] + cur[k + 1]);
            }
        }
    }
}
