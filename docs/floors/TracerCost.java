import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.trace.Tracer;

/**
 * The tracer's own cost, without messages: one loop records what a halo exchange's step records (an
 * isend and an irecv of a vector type, then the wait that sees both complete), into a real trace file
 * in a temporary directory (removed at the end). Args: loops per round.
 */
public class TracerCost {
    public static void main(String[] args) throws IOException {
        int loops = Integer.parseInt(args[0]);
        Path dir = Files.createTempDirectory("tracer-cost");
        try {
            Tracer t = Tracer.open(dir, 0, 2);
            Datatype column = Datatype.vector(256, 1, 258, Datatype.DOUBLE).commit();
            for (int round = 0; round < 5; round++) {
                long start = System.nanoTime();
                for (int i = 0; i < loops; i++) {
                    long send = t.send(false, 1, 5, 0, 1, column);
                    t.started();
                    long recv = t.receive(false, 1, 5, 0, 1, column);
                    t.started();
                    t.enterWait();
                    t.completedSend(send);
                    t.completedReceive(recv, 2048, 1, 5);
                    t.leaveWait();
                }
                System.out.printf("round %d: %.0f ns per isend + irecv + wait%n", round,
                        (System.nanoTime() - start) / (double) loops);
            }
            t.finish();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
    }
}
