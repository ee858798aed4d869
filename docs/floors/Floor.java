/** The halo2d sweep alone, as one rank of R processes would run it: no messages, cold JVM, timed from the first sweep. */
public class Floor {
    static void sweep(double[] cur, double[] next, int w, int r0, int rows, int c0, int cols) {
        for (int i = r0; i < r0 + rows; i++) {
            int row = i * w;
            for (int j = c0; j < c0 + cols; j++) {
                int k = row + j;
                next[k] = 0.25 * (cur[k - w] + cur[k + w] + cur[k - 1] + cur[k + 1]);
            }
        }
    }
    public static void main(String[] a) throws Exception {
        int rows = Integer.parseInt(a[0]), cols = Integer.parseInt(a[1]), iters = Integer.parseInt(a[2]);
        long startAt = Long.parseLong(a[3]); // wall-clock ms at which every process starts timing
        int w = cols + 2;
        double[] u = new double[(rows + 2) * w], v = new double[(rows + 2) * w];
        for (int i = 0; i < u.length; i++) u[i] = i % 7;
        while (System.currentTimeMillis() < startAt) Thread.sleep(1);
        long t0 = System.nanoTime();
        for (int it = 0; it < iters; it++) { sweep(u, v, w, 1, rows, 1, cols); double[] t = u; u = v; v = t; }
        System.out.printf("%.1f%n", (System.nanoTime() - t0) / 1e3 / iters);
    }
}
