/** The halo2d sweep alone on R threads of one cold JVM: no messages, timed from the first sweep; prints the slowest thread's time per iteration. */
public class FloorThreads {
    public static void main(String[] a) throws Exception {
        int r = Integer.parseInt(a[0]), rows = Integer.parseInt(a[1]), cols = Integer.parseInt(a[2]), iters = Integer.parseInt(a[3]);
        double[] out = new double[r];
        java.util.concurrent.CyclicBarrier b = new java.util.concurrent.CyclicBarrier(r);
        Thread[] ts = new Thread[r];
        for (int t = 0; t < r; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                int w = cols + 2;
                double[] u = new double[(rows + 2) * w], v = new double[(rows + 2) * w];
                for (int i = 0; i < u.length; i++) u[i] = i % 7;
                try { b.await(); } catch (Exception e) { throw new RuntimeException(e); }
                long t0 = System.nanoTime();
                for (int it = 0; it < iters; it++) { Floor.sweep(u, v, w, 1, rows, 1, cols); double[] x = u; u = v; v = x; }
                out[id] = (System.nanoTime() - t0) / 1e3 / iters;
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.printf("%.1f%n", java.util.Arrays.stream(out).max().getAsDouble());
    }
}
