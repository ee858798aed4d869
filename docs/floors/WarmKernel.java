import java.lang.foreign.*;
import org.jspin.datatype.kernel.*;

/** How many 1-unit calls, and how long, until a fresh compiled kernel runs compiled; then a 4 MiB call's time. */
public class WarmKernel {
    public static void main(String[] a) {
        long len = Long.parseLong(a[0]);
        long stride = len * 2;
        Arena arena = Arena.ofShared();
        MemorySegment typed = arena.allocate(8 << 20, 64);
        MemorySegment packed = arena.allocate(4 << 20, 64);
        int units = (int) ((4 << 20) / len);
        // warm an unrelated shape first (the program's path)
        CopyKernel other = Kernels.forNativeSegments(Kernels.blocks(len + 8, (len + 8) * 2));
        long t0 = System.nanoTime();
        CopyKernel k = Kernels.forNativeSegments(Kernels.blocks(len, stride));
        long made = System.nanoTime() - t0;
        boolean warm = a.length > 1 && a[1].equals("warm");
        int n = a.length > 2 ? Integer.parseInt(a[2]) : 1;
        long limit = 100 + n * len / 4;
        long w0 = System.nanoTime();
        int calls = 0;
        if (warm) {
            long fast = 0;
            for (calls = 0; calls < 200_000; calls++) {
                long c0 = System.nanoTime();
                k.gather(typed, 0, packed, 0, n);
                k.scatter(packed, 0, typed, 0, n);
                long c = System.nanoTime() - c0;
                fast = c < limit ? fast + 1 : 0;
                if (fast >= 50) break;
            }
        }
        long warming = System.nanoTime() - w0;
        StringBuilder sb = new StringBuilder();
        long[] t = new long[2000];
        for (int i = 0; i < t.length; i++) {
            long c0 = System.nanoTime();
            k.gather(typed, 0, packed, 0, units);
            k.scatter(packed, 0, typed, 0, units);
            t[i] = System.nanoTime() - c0;
        }
        for (int i = 0; i < 10; i++) sb.append(t[i] / 1000).append(' ');
        long[] s = java.util.Arrays.copyOfRange(t, 1000, 2000); java.util.Arrays.sort(s);
        System.out.printf("len %d: made %.1f ms, warm %s %d calls %.1f ms; first ten pack+unpack us: %s; steady %d us%n", len, made / 1e6, warm, calls, warming / 1e6, sb, s[500] / 1000);
    }
}
