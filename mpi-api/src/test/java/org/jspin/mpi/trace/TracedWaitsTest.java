package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each way of waiting records what it saw complete, once: waitAny, testSome, test, testAll, and PROC_NULL not at all. */
class TracedWaitsTest {
    @TempDir
    Path dir;

    @Test
    void everyWayOfWaitingNamesWhatItSawCompleteOnce() throws Exception {
        LocalRanks.run(2, MpiOptions.defaults().withTrace(dir.toString()), 60, mpi -> {
            Comm world = mpi.world();
            MemorySegment b = MemorySegment.ofArray(new byte[4]);
            if (world.rank() == 0) {
                for (int tag = 0; tag < 4; tag++) {
                    world.send(b, 4, Datatype.BYTE, 1, tag);
                }
                return;
            }
            Request any = world.irecv(b, 4, Datatype.BYTE, 0, 0);
            Request.waitAny(any);
            Request some = world.irecv(b, 4, Datatype.BYTE, 0, 1);
            while (Request.testSome(some, any).length < 2) {
                Thread.onSpinWait();
            }
            Request.testSome(some, any); // both reported already: recorded once
            Request.testAll(some, any);
            Request one = world.irecv(b, 4, Datatype.BYTE, 0, 2);
            while (one.test() == null) {
                Thread.onSpinWait();
            }
            one.test();
            Request all = world.irecv(b, 4, Datatype.BYTE, 0, 3);
            Request none = world.irecv(b, 4, Datatype.BYTE, Comm.PROC_NULL, 3);
            while (Request.testAll(all, none) == null) {
                Thread.onSpinWait();
            }
            none.waitFor(); // PROC_NULL: nothing recorded
        });
        StringBuilder expected = new StringBuilder("jspin-trace 1 rank 1 of 2\ntype 1 \"byte\"\n");
        for (int tag = 0; tag < 4; tag++) {
            int l = 2 * tag + 1; // each receive, then the wait that saw it
            expected.append("irecv L").append(l).append(" from 0 tag ").append(tag).append(" ctx 0 bytes 4 type 1 count 4\n")
                    .append("done L").append(l).append(" bytes 4 matched 0 ").append(tag).append('\n')
                    .append("wait L").append(l + 1).append(" on L").append(l).append('\n');
        }
        assertEquals(expected.toString(), TraceLines.userPart(Files.readAllLines(Tracer.rankFile(dir, 1))));
    }
}
