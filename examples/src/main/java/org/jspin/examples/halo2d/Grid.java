package org.jspin.examples.halo2d;

/**
 * The global problem: an N x N interior with a fixed boundary ring, so the array is (N+2) x (N+2)
 * doubles in row-major order. The boundary values are a smooth function, so the stencil has
 * something to spread.
 */
final class Grid {
    private Grid() {
    }

    /** @return the fixed value of global boundary cell (i, j), 0 <= i, j <= n + 1 */
    static double boundary(int i, int j, int n) {
        return Math.sin(0.05 * i) + Math.cos(0.03 * j);
    }

    /** @return whether global cell (i, j) lies on the boundary ring */
    static boolean onBoundary(int i, int j, int n) {
        return i == 0 || j == 0 || i == n + 1 || j == n + 1;
    }

    /** @return the first global interior index and the count of rows (or columns) of part {@code p} of {@code parts} */
    static int[] split(int n, int parts, int p) {
        int base = n / parts;
        int extra = n % parts;
        int count = base + (p < extra ? 1 : 0);
        int first = 1 + p * base + Math.min(p, extra);
        return new int[] {first, count};
    }
}
