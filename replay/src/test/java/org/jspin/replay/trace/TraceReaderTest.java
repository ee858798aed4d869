package org.jspin.replay.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.goal.GoalReader;
import org.jspin.replay.goal.GoalWriter;
import org.jspin.replay.schedule.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {
    private static final String JOB = "{\"format\": \"jspin-trace\", \"version\": 1, \"ranks\": 2, \"program\": \"t\","
            + " \"args\": [], \"backend\": \"host\", \"fabric\": \"shm\", \"threads\": true, \"clock\": \"thread-cpu-ns\"}";
    private static final String VECTOR = "{\"vector\": {\"count\": 4,  \"blocklength\": 1, \"stride\": 2, \"of\": \"double\"}}";
    private static final String RANK0 = """
            jspin-trace 1 rank 0 of 2
            # a halo step
            type 1 "double"
            type 2 %s
            calc 1 500
            irecv 2 from -1 tag -1 ctx 3 bytes 32 type 2 count 1
            isend 3 to 1 tag 7 ctx 3 bytes 64 type 1 count 8
            wait 4 on 2 3
            done 2 bytes 32 matched 1 9
            send 5 to 1 tag 7 ctx 4 bytes 8 type 1 count 1
            """.formatted(VECTOR);
    private static final String RANK1 = """
            jspin-trace 1 rank 1 of 2
            type 1 "double"
            recv 1 from 0 tag 7 ctx 3 bytes 64 type 1 count 8 matched 0 7
            send 2 to 0 tag 9 ctx 3 bytes 32 type 1 count 4
            recv 3 from -1 tag 7 ctx 4 bytes 8 type 1 count 1 matched 0 7
            """;

    private static Path trace(Path dir, String rank0, String rank1) throws IOException {
        Files.writeString(dir.resolve("job.json"), JOB);
        Files.writeString(dir.resolve("rank-0.trace"), rank0);
        Files.writeString(dir.resolve("rank-1.trace"), rank1);
        return dir;
    }

    @Test
    void readsOperationsDependenciesTagsAndTypes(@TempDir Path dir) throws IOException {
        Schedule s = TraceReader.read(trace(dir, RANK0, RANK1));
        assertEquals(8, s.operations());
        // rank 0: calc, irecv, isend, wait, send
        assertEquals(Schedule.CALC, s.kind(0));
        assertEquals(500, s.size(0));
        assertEquals(Schedule.RECV, s.kind(1));
        assertEquals(1, s.peer(1));
        assertEquals(Schedule.SEND, s.kind(2));
        // the irecv's (ctx 3, tag 9) and the isend's (ctx 3, tag 7) are different GOAL tags; (ctx 4, tag 7) a third
        int t37 = s.tag(2);
        int t39 = s.tag(1);
        int t47 = s.tag(4);
        assertTrue(t37 != t39 && t37 != t47 && t39 != t47);
        assertEquals(t37, s.tag(5));
        assertEquals(t39, s.tag(6));
        assertEquals(t47, s.tag(7));
        // the isend starts once the irecv started; the wait requires both (its requires on the isend covers its start); the send requires the wait
        assertEquals(2, s.startDependent(1, 0));
        assertEquals(0, s.startDependents(2));
        assertEquals(3, s.completionDependent(1, 0));
        assertEquals(3, s.completionDependent(2, 0));
        assertEquals(4, s.completionDependent(3, 0));
        assertEquals(2, s.dependencies(3));
        assertEquals("l4", s.label(3));
        assertEquals(8, s.line(3));
        assertFalse(s.types().get(s.type(1)).contiguous());
        assertEquals(VECTOR, s.types().get(s.type(1)).json());
        assertEquals(32, s.types().get(s.type(1)).size());
        assertTrue(s.types().get(s.type(2)).contiguous());
        assertEquals(8, s.count(2));
    }

    @Test
    void aMarkIsAZeroLengthCalcInFileOrderThatTheReplayTimes(@TempDir Path dir) throws IOException {
        String rank0 = "jspin-trace 1 rank 0 of 2\nmark 1\ncalc 2 500\nmark 3\n";
        String rank1 = "jspin-trace 1 rank 1 of 2\nmark 1\ncalc 2 300\nmark 3\n";
        Schedule s = TraceReader.read(trace(dir, rank0, rank1));
        assertTrue(s.isMark(0));
        assertEquals(Schedule.CALC, s.kind(0));
        assertEquals(0, s.size(0));
        assertFalse(s.isMark(1));
        assertEquals(2, s.completionDependent(1, 0));
        var r = new LogGopsReplay(s, LogGopsParameters.defaults(), PlainBytes.INSTANCE).run();
        assertEquals(500, r.markNs(0, 1));
        assertEquals(300, r.markNs(1, 1));
        assertEquals(500, r.computeAtMarkNs(0, 1));
    }

    @Test
    void replaysAsTheGoalItWritesDoes(@TempDir Path dir) throws IOException {
        Schedule s = TraceReader.read(trace(dir, RANK0, RANK1));
        StringWriter goal = new StringWriter();
        GoalWriter.write(s, goal);
        Schedule back = GoalReader.read("back.goal", new StringReader(goal.toString()));
        LogGopsParameters p = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 16);
        var a = new LogGopsReplay(s, p, PlainBytes.INSTANCE).run();
        var b = new LogGopsReplay(back, p, PlainBytes.INSTANCE).run();
        for (int r = 0; r < 2; r++) assertEquals(a.finishNs(r), b.finishNs(r));
        assertTrue(a.finishNs(0) > 500);
    }

    private static String error(Path dir, String rank0) {
        MpiException e = assertThrows(MpiException.class, () -> TraceReader.read(trace(dir, rank0, RANK1)));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        return e.reason();
    }

    @Test
    void malformedLinesNameFileAndLine(@TempDir Path dir) {
        String f = dir.resolve("rank-0.trace").toString();
        assertEquals(f + ":2: unknown record 'probe' (expected type, calc, mark, send, isend, recv, irecv, done or wait)",
                error(dir, "jspin-trace 1 rank 0 of 2\nprobe 1 from 1\n"));
        assertEquals(f + ":3: names label 9, which no earlier line of rank 0 defines",
                error(dir, "jspin-trace 1 rank 0 of 2\ncalc 1 5\nwait 2 on 9\n"));
        assertEquals(f + ":2: type 3 is used before it is declared",
                error(dir, "jspin-trace 1 rank 0 of 2\nsend 1 to 1 tag 0 ctx 0 bytes 8 type 3 count 1\n"));
        assertEquals(f + ":1: the first line is 'jspin-trace 1 rank 1 of 2', not 'jspin-trace 1 rank 0 of 2'",
                error(dir, "jspin-trace 1 rank 1 of 2\n"));
        assertEquals(f + ":3: label 1 does not increase (after 1)",
                error(dir, "jspin-trace 1 rank 0 of 2\ncalc 1 5\ncalc 1 5\n"));
        assertEquals(f + ":2: 'x' where a rank was expected",
                error(dir, "jspin-trace 1 rank 0 of 2\nsend 1 to x tag 0 ctx 0 bytes 8 type 1 count 1\n"));
        assertTrue(error(dir, "jspin-trace 1 rank 0 of 2\ntype 1 {\"bogus\": 1}\n").startsWith(f + ":2: type 1: "));
    }

    @Test
    void aTraceWithoutJobJsonOrARankFileIsRefused(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("rank-0.trace"), RANK0);
        assertTrue(assertThrows(MpiException.class, () -> TraceReader.read(dir)).reason().contains("has no job.json"));
        Files.writeString(dir.resolve("job.json"), JOB);
        assertTrue(assertThrows(MpiException.class, () -> TraceReader.read(dir)).reason()
                .contains("has no rank-1.trace (job.json names 2 ranks)"));
        assertTrue(TraceReader.isTrace(dir));
    }
}
