package org.jspin.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class LinePumpTest {
    private static final byte[] PREFIX = "[3] ".getBytes(StandardCharsets.US_ASCII);

    private static String pumped(InputStream in) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LinePump.pump(in, new PrintStream(bytes, true, StandardCharsets.UTF_8), PREFIX);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String pumped(String text) {
        return pumped(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void prefixesEveryLineAndEndsALastLineWithoutNewline() {
        assertEquals("[3] one\n[3] \n[3] tw\u00f6\n[3] last\n", pumped("one\n\ntw\u00f6\nlast"));
        assertEquals("", pumped(""));
    }

    @Test
    void cutsAnOverlongLineIntoPrefixedPieces() {
        byte[] text = new byte[LinePump.MAX_LINE * 2 + 5];
        Arrays.fill(text, (byte) 'x');
        text[text.length - 1] = '\n';
        String[] lines = pumped(new ByteArrayInputStream(text)).split("\n", -1);
        assertEquals(4, lines.length, "two whole pieces, the rest, and the empty tail");
        assertEquals("[3] ".length() + LinePump.MAX_LINE, lines[0].length());
        assertEquals("[3] ".length() + LinePump.MAX_LINE, lines[1].length());
        assertEquals("[3] xxxx", lines[2]);
        assertEquals("", lines[3]);
    }

    @Test
    void joinsALineThatArrivesInPiecesAndPassesOnWhatCameBeforeAFailure() {
        InputStream trickle = new InputStream() {
            private final byte[] data = "ab".getBytes(StandardCharsets.US_ASCII);
            private int next;

            @Override
            public int read() throws IOException {
                if (next == data.length) {
                    throw new IOException("pipe closed");
                }
                return data[next++];
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int c = read();
                b[off] = (byte) c;
                return 1;
            }
        };
        assertEquals("[3] ab\n", pumped(trickle));
    }
}
