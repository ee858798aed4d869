package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TracerTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private long now = 100;
    private final Tracer tracer = new Tracer(bytes, "rank-1.trace", () -> now, 1, 4);

    private String written() {
        tracer.finish();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void recordsComputeBetweenCallsAndNonblockingOperationsWithTheirWait() {
        now = 250;
        assertEquals(2, tracer.send(false, 2, 5, 0, 4, Datatype.DOUBLE));
        now = 300; // the send's own CPU time is not compute
        tracer.started();
        assertEquals(3, tracer.receive(false, 0, 6, 0, 4, Datatype.DOUBLE));
        tracer.started();
        now = 400;
        tracer.enterWait();
        now = 900; // waiting is not compute either
        tracer.completedSend(2);
        tracer.completedReceive(3, 16, 0, 6);
        tracer.leaveWait();
        now = 950;
        tracer.enterWait();
        tracer.leaveWait(); // a wait that saw nothing recorded (PROC_NULL only) writes nothing
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                calc 1 150
                type 1 "double"
                isend 2 to 2 tag 5 ctx 0 bytes 32 type 1 count 4
                irecv 3 from 0 tag 6 ctx 0 bytes 32 type 1 count 4
                calc 4 100
                done 3 bytes 16 matched 0 6
                wait 5 on 2 3
                calc 6 50
                """, written());
    }

    @Test
    void aMarkWritesTheComputeBeforeItThenItsOwnLabel() {
        now = 180;
        tracer.mark();
        tracer.mark(); // no compute between two marks: no calc line
        now = 200;
        assertEquals(5, tracer.send(false, 2, 5, 0, 1, Datatype.BYTE));
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                calc 1 80
                mark 2
                mark 3
                calc 4 20
                type 1 "byte"
                isend 5 to 2 tag 5 ctx 0 bytes 1 type 1 count 1
                """, written());
    }

    @Test
    void blockingOperationsAreOneLineEachAndAReceiveNamesWhatMatched() {
        Datatype column = Datatype.vector(2, 1, 4, Datatype.DOUBLE).commit();
        assertEquals(1, tracer.send(true, 3, 1, 1, 1, column));
        tracer.started();
        now = 200;
        tracer.enterWait(); // no calc: the send's call has not returned
        tracer.completedSend(1);
        tracer.leaveWait();
        now = 260;
        assertEquals(3, tracer.receive(true, -1, -1, 0, 2, Datatype.DOUBLE));
        tracer.started();
        now = 300;
        tracer.enterWait();
        tracer.completedReceive(3, 8, 2, 3);
        tracer.leaveWait();
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                type 1 {"vector":{"count":2,"blocklength":1,"stride":4,"of":"double"}}
                send 1 to 3 tag 1 ctx 1 bytes 16 type 1 count 1
                calc 2 60
                type 2 "double"
                recv 3 from -1 tag -1 ctx 0 bytes 8 type 2 count 2 matched 2 3
                """, written());
    }

    @Test
    void aBlockingSendWhoseStartFailedDoesNotSilenceTheNextWaitsCompute() {
        tracer.send(true, 0, 0, 0, 1, Datatype.BYTE); // its put threw: it is never waited for
        assertEquals(2, tracer.send(false, 0, 0, 0, 1, Datatype.BYTE));
        tracer.started();
        now = 170;
        tracer.enterWait();
        tracer.completedSend(2);
        tracer.leaveWait();
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                type 1 "byte"
                send 1 to 0 tag 0 ctx 0 bytes 1 type 1 count 1
                isend 2 to 0 tag 0 ctx 0 bytes 1 type 1 count 1
                calc 3 70
                wait 4 on 2
                """, written());
    }

    @Test
    void declaresEachTypeBeforeItsFirstUse() {
        tracer.send(false, 0, 0, 0, 1, Datatype.INT);
        tracer.receive(true, 0, 0, 0, 1, Datatype.DOUBLE);
        tracer.completedReceive(2, 8, 0, 0);
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                type 1 "int"
                isend 1 to 0 tag 0 ctx 0 bytes 4 type 1 count 1
                type 2 "double"
                recv 2 from 0 tag 0 ctx 0 bytes 8 type 2 count 1 matched 0 0
                """, written());
    }

    @Test
    void anotherThreadsClockIsNotComparedWithTheOwners() throws Exception {
        now = 5_000;
        Thread other = new Thread(() -> tracer.send(false, 0, 0, 0, 1, Datatype.BYTE));
        other.start();
        other.join();
        String text = written();
        assertFalse(text.contains("calc"), text);
        assertTrue(text.contains("isend 1 to 0"), text);
    }

    @Test
    void afterFinishEveryCallIsIgnored() {
        tracer.finish();
        assertTrue(tracer.finished());
        int before = bytes.size();
        now = 1_000;
        assertEquals(0, tracer.send(true, 0, 0, 0, 1, Datatype.BYTE));
        assertEquals(0, tracer.receive(false, 0, 0, 0, 1, Datatype.BYTE));
        tracer.enterWait();
        tracer.completedReceive(5, 1, 0, 0);
        tracer.completedSend(6);
        tracer.leaveWait();
        tracer.mark();
        tracer.finish();
        assertEquals(before, bytes.size());
    }

    @Test
    void openWritesTheRankFileInADirectoryItCreates(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        Tracer t = Tracer.open(dir, 3, 5);
        t.finish();
        assertEquals("jspin-trace 1 rank 3 of 5\n", Files.readString(dir.resolve("rank-3.trace")));
    }

    @Test
    void rankZeroRemovesAnEarlierRunsJobJsonWhenItStarts(@TempDir Path dir) throws Exception {
        Path old = Files.writeString(dir.resolve(TraceJob.FILE), "{}");
        Tracer.open(dir, 1, 2).finish();
        assertTrue(Files.exists(old));
        Tracer.open(dir, 0, 2).finish();
        assertFalse(Files.exists(old));
    }

    @Test
    void aDirectoryThatCannotBeCreatedFailsNamingIt(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        Path dir = file.resolve("trace");
        MpiException e = assertThrows(MpiException.class, () -> Tracer.open(dir, 0, 1));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
        assertFalse(Files.exists(dir));
    }
}
