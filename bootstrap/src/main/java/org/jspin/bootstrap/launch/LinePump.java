package org.jspin.bootstrap.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Copies a rank's output to the launcher's, line by line, each line prefixed ({@code [rank] }) and
 * written in one call, so lines of different ranks never interleave mid-line.
 */
final class LinePump {
    /** Longest line passed on whole; longer ones are cut so a rank printing without newlines cannot exhaust memory. */
    static final int MAX_LINE = 1 << 20;

    private LinePump() {
    }

    /**
     * Copies {@code in} to {@code to} until its end, each line prefixed with {@code prefix}; a line
     * longer than {@link #MAX_LINE} goes on in pieces of that size, each prefixed, and a last line
     * without its newline gets one. Closes {@code in}.
     */
    static void pump(InputStream in, PrintStream to, byte[] prefix) {
        byte[] chunk = new byte[8192];
        byte[] line = new byte[256];
        int len = 0;
        try (in) {
            int r;
            while ((r = in.read(chunk)) >= 0) {
                int from = 0;
                for (int i = 0; i < r; i++) {
                    if (chunk[i] == '\n' || len + (i - from) == MAX_LINE) {
                        line = append(line, len, chunk, from, i - from);
                        len += i - from;
                        emit(to, prefix, line, len);
                        len = 0;
                        from = chunk[i] == '\n' ? i + 1 : i;
                    }
                }
                line = append(line, len, chunk, from, r - from);
                len += r - from;
            }
        } catch (IOException e) {
            // the pipe closed under us: the process is gone; pass on what arrived
        }
        if (len > 0) {
            emit(to, prefix, line, len); // a last line without its newline
        }
    }

    private static byte[] append(byte[] line, int len, byte[] src, int from, int n) {
        if (len + n > line.length) {
            line = Arrays.copyOf(line, Math.max(len + n, Math.min(MAX_LINE, line.length * 2)));
        }
        System.arraycopy(src, from, line, len, n);
        return line;
    }

    private static void emit(PrintStream to, byte[] prefix, byte[] line, int len) {
        byte[] whole = new byte[prefix.length + len + 1];
        System.arraycopy(prefix, 0, whole, 0, prefix.length);
        System.arraycopy(line, 0, whole, prefix.length, len);
        whole[whole.length - 1] = '\n';
        to.write(whole, 0, whole.length); // one call: PrintStream writes it under its lock, whole
        to.flush();
    }
}
