package org.jspin.replay.goal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.schedule.Schedule;
import org.junit.jupiter.api.Test;

class GoalReaderTest {
    private static Schedule read(String text) throws IOException {
        return GoalReader.read("x.goal", new StringReader(text));
    }

    private static String error(String text) {
        MpiException e = assertThrows(MpiException.class, () -> read(text));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        return e.reason();
    }

    @Test
    void readsEveryFormTxt2binAccepts() throws IOException {
        Schedule s = read("""
                // a comment
                num_ranks 2
                /* a comment
                   over lines */
                rank 0 {
                l1: send 16b to 1 tag 4 cpu 1 nic 2
                l2: calc 100 cpu 1
                send 8 b to 1
                l2 requires l1
                l3 : recv 4b from -1 tag -1
                l3 irequires l2
                }
                rank 1 {
                a_1: recv 16b from 0 tag 4
                b: recv 8b from 0
                }
                """);
        assertEquals(2, s.ranks());
        assertEquals(6, s.operations());
        assertEquals(Schedule.SEND, s.kind(0));
        assertEquals(16, s.size(0));
        assertEquals(1, s.peer(0));
        assertEquals(4, s.tag(0));
        assertEquals(1, s.cpu(0));
        assertEquals(2, s.nic(0));
        assertEquals(Schedule.CALC, s.kind(1));
        assertEquals(100, s.size(1));
        assertEquals(0, s.tag(2));
        assertEquals(Schedule.ANY, s.peer(3));
        assertEquals(Schedule.ANY, s.tag(3));
        assertEquals(1, s.completionDependents(0));
        assertEquals(1, s.completionDependent(0, 0));
        assertEquals(1, s.startDependents(1));
        assertEquals(3, s.startDependent(1, 0));
        assertEquals("a_1", s.label(4));
        assertEquals("l2", s.label(1));
        assertEquals(14, s.line(4));
        assertEquals(2, s.cpus());
        assertEquals(3, s.nics());
    }

    @Test
    void anUnknownOperationNamesFileAndLine() {
        assertEquals("x.goal:3: unknown operation 'put' (expected send, recv, calc, requires or irequires)",
                error("num_ranks 1\nrank 0 {\nl1: put 8b to 0\n}\n"));
    }

    @Test
    void aDependencyOnAMissingLabelNamesIt() {
        String m = error("num_ranks 1\nrank 0 {\nl1: calc 5\nl1 requires l9\n}\n");
        assertEquals("x.goal:4: a dependency names label l9, which rank 0 has not defined (before this line)", m);
    }

    @Test
    void labelsArePerRank() {
        String m = error("num_ranks 2\nrank 0 {\nl1: calc 5\n}\nrank 1 {\nl2: calc 5\nl2 requires l1\n}\n");
        assertEquals("x.goal:7: a dependency names label l1, which rank 1 has not defined (before this line)", m);
    }

    @Test
    void aCycleNamesItsOperationsAndLines() {
        String m = error("num_ranks 1\nrank 0 {\nl1: calc 5\nl2: calc 5\nl3: calc 1\nl1 requires l2\nl2 requires l1\n"
                + "l3 requires l2\n}\n");
        assertEquals("x.goal:3: rank 0's dependencies have a cycle; it holds back l1 (line 3), l2 (line 4),"
                + " l3 (line 5)", m);
    }

    @Test
    void otherMistakesNameTheirLine() {
        assertEquals("x.goal:4: label l1 is defined twice in rank 0",
                error("num_ranks 1\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n"));
        assertEquals("x.goal:3: send to rank 2, not in 0..0", error("num_ranks 1\nrank 0 {\nsend 1b to 2\n}\n"));
        assertEquals("x.goal:2: rank 1 comes where rank 0 of 2 was expected (ranks in order, each once)",
                error("num_ranks 2\nrank 1 {\n}\n"));
        assertEquals("x.goal:3: the file ends inside rank 0's block (a missing '}')",
                error("num_ranks 1\nrank 0 {\ncalc 1\n"));
        assertEquals("x.goal: rank 1 of 2 has no schedule", error("num_ranks 2\nrank 0 {\n}\n"));
        assertEquals("x.goal:3: 'x' where a size in bytes (Nb) was expected",
                error("num_ranks 1\nrank 0 {\nsend xb to 0\n}\n"));
        assertEquals("x.goal:3: unexpected 'now' at the end of the line",
                error("num_ranks 1\nrank 0 {\ncalc 4 now\n}\n"));
        assertEquals("x.goal:1: 'calc' outside a rank block (expected num_ranks or rank N {)", error("calc 4\n"));
        assertEquals("x.goal:1: 99999999999 is larger than the number of ranks may be (16777216)",
                error("num_ranks 99999999999\n"));
        assertEquals("x.goal:3: '-1' where a rank was expected", error("num_ranks 1\nrank 0 {\nsend 1b to -1\n}\n"));
    }
}
