package org.jspin.bootstrap.pmi;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The line splitting shared by the transports: bytes come in whatever pieces the transport delivers
 * (several lines at once, or a line in fragments) and leave as whole lines.
 */
abstract class BufferedLineChannel implements PmiLineChannel {
    /** No PMI-1 line comes close (Hydra's values stop at 1024 bytes); anything longer is garbage. */
    static final int MAX_LINE = 64 * 1024;

    private byte[] buf = new byte[4096];
    private int start;
    private int end;

    /**
     * Reads at least one byte, waiting until the deadline.
     *
     * @return the number of bytes read into {@code into[off..off+len)}, or -1 at end of stream
     * @throws SocketTimeoutException when nothing arrived by the deadline
     */
    protected abstract int fill(byte[] into, int off, int len, long deadlineNanos) throws IOException;

    /** Writes every byte of {@code bytes}, waiting (where the transport can) until the deadline. */
    protected abstract void writeFully(byte[] bytes, long deadlineNanos) throws IOException;

    @Override
    public final void writeLine(String line, long deadlineNanos) throws IOException {
        writeFully((line + "\n").getBytes(StandardCharsets.UTF_8), deadlineNanos);
    }

    @Override
    public final String readLine(long deadlineNanos) throws IOException {
        int scanned = start;
        while (true) {
            for (int i = scanned; i < end; i++) {
                if (buf[i] == '\n') {
                    String line = new String(buf, start, i - start, StandardCharsets.UTF_8);
                    start = i + 1;
                    return line;
                }
            }
            if (end - start > MAX_LINE) {
                throw new IOException("a line from " + describe() + " is longer than " + MAX_LINE
                        + " bytes without a newline");
            }
            if (end == buf.length) {
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    buf = Arrays.copyOf(buf, Math.min(buf.length * 2, MAX_LINE + 2));
                }
            }
            scanned = end;
            int n = fill(buf, end, buf.length - end, deadlineNanos);
            if (n < 0) {
                throw new EOFException(describe() + " was closed by the process manager"
                        + (end > start ? " in the middle of a line" : ""));
            }
            end += n;
        }
    }

    /** @return milliseconds left until the deadline, rounded up; at most {@link Integer#MAX_VALUE} */
    static int millisLeft(long deadlineNanos, String what) throws SocketTimeoutException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("timed out " + what);
        }
        return (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
    }
}
