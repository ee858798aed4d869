package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class TraceBufferTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private String text() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesNumbersInDecimalWithTheirSigns() throws Exception {
        TraceBuffer b = new TraceBuffer(out, 1 << 20);
        b.text("n").number(0).number(7).number(-42).number(1234567890123L).number(Long.MAX_VALUE)
                .number(Long.MIN_VALUE);
        b.endLine();
        b.drain();
        assertEquals("n 0 7 -42 1234567890123 9223372036854775807 -9223372036854775808\n", text());
    }

    @Test
    void keepsLinesUntilItPassesItsLimitThenDrainsAtTheLineEnd() throws Exception {
        TraceBuffer b = new TraceBuffer(out, 10);
        b.text("abc").word("de");
        b.endLine(); // 7 bytes: kept
        assertEquals("", text());
        assertEquals(7, b.pending());
        b.text("fgh").number(1);
        b.endLine(); // 13 bytes: drained
        assertEquals("abc de\nfgh 1\n", text());
        assertEquals(0, b.pending());
    }

    @Test
    void growsPastItsFirstCapacityAndKeepsNonAsciiTextValid() throws Exception {
        TraceBuffer b = new TraceBuffer(out, 1 << 20);
        String longWord = "x".repeat(10_000);
        b.text(longWord).word("é!");
        b.endLine();
        b.drain();
        assertEquals(longWord + " é!\n", text());
    }
}
