package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.trace.Tracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestTraceTest {
    @TempDir
    Path dir;

    private List<String> withoutCalc(Tracer t) throws Exception {
        t.finish();
        return Files.readAllLines(Tracer.rankFile(dir, 0)).stream().filter(l -> !l.startsWith("calc ")).toList();
    }

    @Test
    void aReceiveNamesTheWorldRankOfTheCommunicatorRankItMatched() throws Exception {
        Tracer t = Tracer.open(dir, 0, 9);
        long label = t.receive(false, -1, -1, 4, 2, Datatype.LONG);
        long send = t.send(false, 5, 3, 4, 1, Datatype.LONG);
        t.enterWait();
        new RequestTrace(t, label, new int[] {5, 8}).completed(new Status(1, 9, 16, null, false));
        new RequestTrace(t, send, null).completed(new Status(0, 3, 8, null, false));
        t.leaveWait();
        List<String> lines = withoutCalc(t);
        assertEquals("done " + label + " bytes 16 matched 8 9", lines.get(lines.size() - 2));
        assertTrue(lines.getLast().matches("wait \\d+ on " + label + " " + send), lines.getLast());
    }

    @Test
    void aCancelledReceiveIsNotNamedByItsWait() throws Exception {
        Tracer t = Tracer.open(dir, 0, 1);
        long label = t.receive(false, 0, 1, 0, 1, Datatype.BYTE);
        t.enterWait();
        new RequestTrace(t, label, new int[] {0}).completed(new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, 0, null, true));
        t.leaveWait();
        List<String> lines = withoutCalc(t);
        assertEquals("irecv " + label + " from 0 tag 1 ctx 0 bytes 1 type 1 count 1", lines.getLast());
    }

    @Test
    void aPollingLoopThatSeesARecordedCompletionAgainWritesNothing() throws Exception {
        Tracer t = Tracer.open(dir, 0, 2);
        Request done = Request.completed(new Status(1, 0, 8, null, false));
        done.traced(t, t.send(false, 1, 0, 0, 1, Datatype.LONG), null);
        t.started();
        Request pending = new Request(null, null, null);
        pending.traced(t, t.receive(false, 1, 0, 0, 1, Datatype.LONG), new int[] {0, 1});
        t.started();
        for (int i = 0; i < 1_000; i++) {
            assertEquals(1, Request.testSome(done, pending).length);
        }
        assertEquals(null, Request.testAll(done, pending));
        t.finish();
        List<String> lines = Files.readAllLines(Tracer.rankFile(dir, 0));
        assertEquals(1, lines.stream().filter(l -> l.startsWith("wait ")).count(), String.join("\n", lines));
        assertTrue(lines.stream().filter(l -> l.startsWith("calc ")).count() <= 3, String.join("\n", lines));
    }
}
