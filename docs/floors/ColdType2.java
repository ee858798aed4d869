import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jspin.datatype.Datatype;
import org.jspin.mpi.*;

/** After the path is warm (another type's messages), a new type's first ten messages against its steady state. */
public class ColdType2 {
    public static void main(String[] a) {
        int n = 2000;
        int warm = Integer.parseInt(a.length > 0 ? a[0] : "300");
        int blockDoubles = Integer.parseInt(a.length > 1 ? a[1] : "16");
        long[][] t = new long[1][];
        LocalRanks.run(2, MpiOptions.defaults(), mpi -> {
            Comm w = mpi.world();
            double[] buf = new double[(4 << 20) / 8 * 2];
            MemorySegment s = MemorySegment.ofArray(buf);
            Datatype other = Datatype.vector((4 << 20) / 64, 8, 16, Datatype.DOUBLE).commit();
            for (int i = 0; i < warm; i++) pp(w, s, other);
            if (w.rank() == 0) System.out.println("=== new type (for -XX:+PrintCompilation)");
            int blocks = (4 << 20) / (blockDoubles * 8);
            long c0 = System.nanoTime();
            Datatype v = Datatype.vector(blocks, blockDoubles, blockDoubles * 2, Datatype.DOUBLE).commit();
            long commit = System.nanoTime() - c0;
            long[] times = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                pp(w, s, v);
                times[i] = (System.nanoTime() - t0) / 2;
                if (i == 1 && w.rank() == 0) System.out.println("=== its second message done");
            }
            if (w.rank() == 0) { t[0] = times; System.out.printf("commit %.1f ms%n", commit / 1e6); }
        });
        long[] x = t[0];
        long[] steady = Arrays.copyOfRange(x, 1000, 2000); Arrays.sort(steady);
        double med = steady[500] / 1e3;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(String.format("%.0f ", x[i] / 1e3));
        long[] first = Arrays.copyOf(x, 10); Arrays.sort(first);
        System.out.printf("first ten one-way us: %s; steady median %.0f us; first ten's median / steady %.1f, worst %.1f%n", sb, med, first[5] / 1e3 / med, first[9] / 1e3 / med);
    }
    static void pp(Comm w, MemorySegment s, Datatype v) {
        if (w.rank() == 0) { w.send(s, 1, v, 1, 0); w.recv(s, 1, v, 1, 0); }
        else { w.recv(s, 1, v, 0, 0); w.send(s, 1, v, 0, 0); }
    }
}
