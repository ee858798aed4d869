import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jspin.datatype.Datatype;
import org.jspin.mpi.*;

/** A new datatype's first messages from its commit against its steady state: 2 thread ranks, local fabric, 4 MiB of 64 B blocks at 128 B stride, one-way times of a ping-pong. */
public class ColdType {
    public static void main(String[] a) {
        int n = 2000;
        long[][] t = new long[1][];
        LocalRanks.run(2, MpiOptions.defaults(), mpi -> {
            Comm w = mpi.world();
            int blocks = (4 << 20) / 64;
            double[] buf = new double[blocks * 16];
            MemorySegment s = MemorySegment.ofArray(buf);
            long c0 = System.nanoTime();
            Datatype v = Datatype.vector(blocks, 8, 16, Datatype.DOUBLE).commit();
            long commit = System.nanoTime() - c0;
            long[] times = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                if (w.rank() == 0) { w.send(s, 1, v, 1, 0); w.recv(s, 1, v, 1, 0); }
                else { w.recv(s, 1, v, 0, 0); w.send(s, 1, v, 0, 0); }
                times[i] = (System.nanoTime() - t0) / 2;
            }
            if (w.rank() == 0) { t[0] = times; System.out.printf("commit %.1f ms%n", commit / 1e6); }
        });
        long[] x = t[0];
        long[] steady = Arrays.copyOfRange(x, 1000, 2000); Arrays.sort(steady);
        double med = steady[500] / 1e3;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(String.format("%.0f ", x[i] / 1e3));
        long[] first = Arrays.copyOf(x, 10); Arrays.sort(first);
        System.out.printf("first ten one-way us: %s; steady median (1000-2000) %.0f us; first ten's median / steady %.1f, worst %.1f%n", sb, med, first[5] / 1e3 / med, first[9] / 1e3 / med);
    }
}
