package org.jspin.examples.halo3d;

/**
 * The global problem: an N x N x N interior with a fixed boundary shell, so the array is (N+2)^3
 * doubles, index {@code (i * (N+2) + j) * (N+2) + k} (k fastest). The boundary values are a smooth
 * function, so the stencil has something to spread; the interior starts at 0.
 */
final class Box {
    private Box() {
    }

    /** @return the fixed value of global boundary cell (i, j, k) */
    static double boundary(int i, int j, int k) {
        return Math.sin(0.07 * i) + Math.cos(0.05 * j) + 0.5 * Math.sin(0.03 * k);
    }

    /** @return whether global cell (i, j, k) lies on the boundary shell of an n^3 interior */
    static boolean onBoundary(int i, int j, int k, int n) {
        return i == 0 || j == 0 || k == 0 || i == n + 1 || j == n + 1 || k == n + 1;
    }

    /** @return the first global interior index and the count of part {@code p} of {@code parts} of n */
    static int[] split(int n, int parts, int p) {
        int base = n / parts;
        int extra = n % parts;
        return new int[] {1 + p * base + Math.min(p, extra), base + (p < extra ? 1 : 0)};
    }

    /**
     * The seven-point Jacobi update of cells [i0, i1) x [j0, j1) x [k0, k1) of an array of
     * {@code ny x nz} planes (halo included): shared by the distributed and the serial run, so both
     * round alike.
     */
    static void sweep(double[] cur, double[] next, int ny, int nz, int i0, int i1, int j0, int j1, int k0, int k1) {
        int plane = ny * nz;
        for (int i = i0; i < i1; i++) {
            for (int j = j0; j < j1; j++) {
                int row = (i * ny + j) * nz;
                for (int k = k0; k < k1; k++) {
                    int c = row + k;
                    next[c] = (cur[c - plane] + cur[c + plane] + cur[c - nz] + cur[c + nz] + cur[c - 1] + cur[c + 1])
                            / 6.0;
                }
            }
        }
    }

    /** @return the (N+2)^3 grid after {@code iterations} serial sweeps */
    static double[] serial(int n, int iterations) {
        int w = n + 2;
        double[] u = new double[w * w * w];
        double[] v = new double[w * w * w];
        for (int i = 0; i < w; i++) {
            for (int j = 0; j < w; j++) {
                for (int k = 0; k < w; k++) {
                    if (onBoundary(i, j, k, n)) {
                        u[(i * w + j) * w + k] = boundary(i, j, k);
                        v[(i * w + j) * w + k] = u[(i * w + j) * w + k];
                    }
                }
            }
        }
        for (int it = 0; it < iterations; it++) {
            sweep(u, v, w, w, 1, n + 1, 1, n + 1, 1, n + 1);
            double[] t = u;
            u = v;
            v = t;
        }
        return u;
    }
}
