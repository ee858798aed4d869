package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class TraceWriterTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TraceWriter out = new TraceWriter(new TraceBuffer(bytes, 1 << 20), "t.trace");

    private String written() {
        out.drain();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesEveryKindOfLineAsTheFormatSpellsIt() {
        out.header(1, 4);
        out.type(1, "\"double\"");
        out.calc(1, 1500);
        out.send(true, 2, 0, 7, 0, 64, 1, 8);
        out.send(false, 3, 2, 8, 1, 16, 1, 2);
        out.irecv(4, -1, -1, 0, 800, 1, 100);
        out.recv(5, 3, 9, 2, 24, 1, 3, 3, 9);
        out.done(4, 72, 2, 11);
        out.waitOn(6, new long[] {3, 4, 99}, 2);
        assertEquals("""
                jspin-trace 1 rank 1 of 4
                type 1 "double"
                calc 1 1500
                send 2 to 0 tag 7 ctx 0 bytes 64 type 1 count 8
                isend 3 to 2 tag 8 ctx 1 bytes 16 type 1 count 2
                irecv 4 from -1 tag -1 ctx 0 bytes 800 type 1 count 100
                recv 5 from 3 tag 9 ctx 2 bytes 24 type 1 count 3 matched 3 9
                done 4 bytes 72 matched 2 11
                wait 6 on 3 4
                """, written());
    }

    @Test
    void aFileThatCannotBeWrittenIsAnErrorNamingIt() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("disk full");
            }
        };
        TraceWriter w = new TraceWriter(new TraceBuffer(broken, 1), "/x/rank-0.trace");
        MpiException e = assertThrows(MpiException.class, () -> w.calc(1, 2));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("/x/rank-0.trace") && e.getMessage().contains("disk full"), e.getMessage());
    }
}
