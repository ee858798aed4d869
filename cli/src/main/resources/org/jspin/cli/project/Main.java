package %PACKAGE%;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;

/** A first jspin program: a token goes round a ring of ranks, each adding its rank. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        try (Mpi mpi = Mpi.init()) {
            Comm world = mpi.world();
            long token = ring(world);
            if (world.rank() == 0) {
                System.out.println("ring of " + world.size() + " ranks, token " + token);
            }
        }
    }

    /** @return on rank 0, the token after its round: 0 + 1 + ... + (size - 1); elsewhere what this rank passed on */
    static long ring(Comm world) {
        int next = (world.rank() + 1) % world.size();
        int prev = (world.rank() + world.size() - 1) % world.size();
        long[] token = {0};
        MemorySegment buf = MemorySegment.ofArray(token);
        if (world.rank() == 0) {
            world.send(buf, 1, Datatype.LONG, next, 0);
            world.recv(buf, 1, Datatype.LONG, prev, 0);
        } else {
            world.recv(buf, 1, Datatype.LONG, prev, 0);
            token[0] += world.rank();
            world.send(buf, 1, Datatype.LONG, next, 0);
        }
        return token[0];
    }
}
