package org.jspin.examples.halo2d;

/** The reference: the same Jacobi sweeps on the whole grid in one array, in the same order. */
final class SerialJacobi {
    private SerialJacobi() {
    }

    /** @return the (N+2) x (N+2) grid after {@code iterations} sweeps */
    static double[] run(int n, int iterations) {
        int w = n + 2;
        double[] u = new double[w * w];
        double[] v = new double[w * w];
        for (int i = 0; i < w; i++) {
            for (int j = 0; j < w; j++) {
                if (Grid.onBoundary(i, j, n)) {
                    u[i * w + j] = Grid.boundary(i, j, n);
                    v[i * w + j] = u[i * w + j];
                }
            }
        }
        for (int it = 0; it < iterations; it++) {
            Stencil.sweep(u, v, w, 1, n, 1, n);
            double[] t = u;
            u = v;
            v = t;
        }
        return u;
    }
}
