package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        assertEquals("""
                irecv L1 from 0 tag 0 ctx 0 bytes 4 type 1 count 4
                done L1 bytes 4 matched 0 0
                wait L2 on L1
                irecv L3 from 0 tag 1 ctx 0 bytes 4 type 1 count 4
                done L3 bytes 4 matched 0 1
                wait L4 on L3
                irecv L5 from 0 tag 2 ctx 0 bytes 4 type 1 count 4
                done L5 bytes 4 matched 0 2
                wait L6 on L5
                irecv L7 from 0 tag 3 ctx 0 bytes 4 type 1 count 4
                done L7 bytes 4 matched 0 3
                wait L8 on L7
                """, userLines(Files.readAllLines(Tracer.rankFile(dir, 1))));
    }

    /** The lines of the world's context after the header, without calc and type lines, labels named in order. */
    private static String userLines(List<String> lines) {
        Map<String, String> names = new HashMap<>();
        StringBuilder b = new StringBuilder();
        for (String line : lines.subList(1, lines.size())) {
            String[] w = line.split(" ");
            if (w[0].equals("calc") || w[0].equals("type")) {
                continue;
            }
            if (line.contains(" ctx 1 ")) {
                break; // the closing barrier
            }
            w[1] = names.computeIfAbsent(w[1], l -> "L" + (names.size() + 1));
            for (int i = 3; w[0].equals("wait") && i < w.length; i++) {
                w[i] = names.get(w[i]);
            }
            b.append(String.join(" ", w)).append('\n');
        }
        return b.toString();
    }
}
