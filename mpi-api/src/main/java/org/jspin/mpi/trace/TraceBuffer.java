package org.jspin.mpi.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growing buffer of ASCII text that numbers are written into digit by digit, so that recording a
 * message allocates nothing; it is drained to its stream when it passes {@code flushBytes} and when
 * the trace ends.
 */
final class TraceBuffer {
    private final OutputStream out;
    private final int flushBytes;
    private byte[] bytes = new byte[4096];
    private int length;

    /**
     * @param out        where the text goes
     * @param flushBytes how many bytes the buffer holds before a line's end drains it
     */
    TraceBuffer(OutputStream out, int flushBytes) {
        this.out = out;
        this.flushBytes = flushBytes;
    }

    TraceBuffer text(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return utf8(s.substring(i)); // datatype JSON is ASCII, but a line must stay valid UTF-8 whatever it holds
            }
            bytes[length++] = (byte) c;
        }
        return this;
    }

    private TraceBuffer utf8(String rest) {
        byte[] b = rest.getBytes(StandardCharsets.UTF_8);
        ensure(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
        return this;
    }

    /** Appends a space, then {@code word}. */
    TraceBuffer word(String word) {
        ensure(1);
        bytes[length++] = ' ';
        return text(word);
    }

    /** Appends a space, then {@code v} in decimal. */
    TraceBuffer number(long v) {
        ensure(21);
        bytes[length++] = ' ';
        if (v == Long.MIN_VALUE) {
            return text("-9223372036854775808");
        }
        if (v < 0) {
            bytes[length++] = '-';
            v = -v;
        }
        int start = length;
        do {
            bytes[length++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        for (int i = start, j = length - 1; i < j; i++, j--) {
            byte t = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = t;
        }
        return this;
    }

    /** Ends the line, and drains the buffer if it has passed its limit. */
    void endLine() throws IOException {
        ensure(1);
        bytes[length++] = '\n';
        if (length >= flushBytes) {
            drain();
        }
    }

    /** Writes what the buffer holds to the stream and empties it. */
    void drain() throws IOException {
        out.write(bytes, 0, length);
        length = 0;
    }

    /** @return the bytes not yet drained (for tests) */
    int pending() {
        return length;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
