import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The floor of a small message's latency between two JVM processes on one host: an 8 B record
 * through Agrona's one-to-one ring in a shared file, each way, the reader spinning. No matching,
 * no requests, no MPI: what the shm fabric's rings cost at the least. Start the echo first:
 *   taskset -c 1 java -cp agrona.jar:. RingLatency echo /dev/shm/ring-floor &
 *   taskset -c 0 java -cp agrona.jar:. RingLatency ping /dev/shm/ring-floor 2000000
 * Prints the one-way time (half the round trip) at p50 and p99, in ns.
 */
public final class RingLatency {
    private static final int CAPACITY = 1 << 16;
    private static final int RING_BYTES = CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;

    public static void main(String[] args) throws IOException {
        boolean ping = args[0].equals("ping");
        Path file = Path.of(args[1]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2L * RING_BYTES + 64);
            UnsafeBuffer all = new UnsafeBuffer(map);
            OneToOneRingBuffer toEcho = new OneToOneRingBuffer(new UnsafeBuffer(all, 0, RING_BYTES));
            OneToOneRingBuffer toPing = new OneToOneRingBuffer(new UnsafeBuffer(all, RING_BYTES, RING_BYTES));
            int ready = 2 * RING_BYTES;
            UnsafeBuffer msg = new UnsafeBuffer(new byte[8]);
            long[] got = new long[1];
            if (!ping) {
                all.putIntVolatile(ready, 1);
                while (true) {
                    int n = toEcho.read((type, buf, at, len) -> got[0] = buf.getLong(at), 1);
                    if (n == 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    if (got[0] < 0) {
                        return;
                    }
                    msg.putLong(0, got[0]);
                    while (!toPing.write(1, msg, 0, 8)) {
                        Thread.onSpinWait();
                    }
                }
            }
            while (all.getIntVolatile(ready) != 1) {
                Thread.onSpinWait();
            }
            int n = Integer.parseInt(args[2]);
            int warm = n / 10;
            long[] oneWay = new long[n];
            for (int i = -warm; i < n; i++) {
                long t0 = System.nanoTime();
                msg.putLong(0, i + warm);
                while (!toEcho.write(1, msg, 0, 8)) {
                    Thread.onSpinWait();
                }
                while (toPing.read((type, buf, at, len) -> got[0] = buf.getLong(at), 1) == 0) {
                    Thread.onSpinWait();
                }
                if (i >= 0) {
                    oneWay[i] = (System.nanoTime() - t0) / 2;
                }
            }
            msg.putLong(0, -1);
            toEcho.write(1, msg, 0, 8);
            Arrays.sort(oneWay);
            System.out.printf("one-way 8 B: p50 %d ns, p99 %d ns (%d round trips)%n", oneWay[n / 2],
                    oneWay[(int) (n * 0.99)], n);
        }
    }
}
