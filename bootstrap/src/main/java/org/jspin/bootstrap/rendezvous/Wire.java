package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.SecretProof;

/**
 * The rendezvous wire format, shared by server and client: lines of printable ASCII ending in
 * {@code '\n'}, fields separated by one space, every value percent-encoded (so a value may hold
 * spaces, ':' or any Unicode without breaking the framing).
 *
 * <pre>
 * client: JSPIN-RDV/2 HELLO &lt;job&gt; &lt;rank&gt; &lt;nonce&gt; &lt;endpoint&gt;
 * server: JSPIN-RDV/2 CHALLENGE &lt;nonce&gt; &lt;proof&gt;   (the server proves it holds the job secret)
 * client: JSPIN-RDV/2 PROOF &lt;proof&gt;                 (the rank proves it)
 * server: JSPIN-RDV/2 ACCEPTED                      (hello registered; now wait)
 *         JSPIN-RDV/2 ENDPOINTS &lt;n&gt;, then n lines EP &lt;rank&gt; &lt;endpoint&gt; in rank order,
 *         then JSPIN-RDV/2 END, then the server closes
 *     or: JSPIN-RDV/2 ERROR &lt;reason&gt;, then the server closes
 * </pre>
 *
 * Nonces and proofs are 32 bytes in hex; a proof is {@link #proof}. The secret itself never
 * crosses the wire (version 1 sent it in the hello).
 */
final class Wire {
    /** Protocol name and version; a peer speaking another version is refused by name. */
    static final String VERSION = "JSPIN-RDV/2";
    static final String HELLO = "HELLO";
    static final String CHALLENGE = "CHALLENGE";
    static final String PROOF = "PROOF";
    static final String ACCEPTED = "ACCEPTED";
    static final String ENDPOINTS = "ENDPOINTS";
    static final String EP = "EP";
    static final String END = "END";
    static final String ERROR = "ERROR";
    /** How an {@link #ERROR} reason refusing a hello of another job begins (see {@link #otherJob}). */
    private static final String OTHER_JOB = "job id '";
    private static final String OTHER_JOB_MIDDLE = "' is not this rendezvous's job '";

    /** Longest line either side reads (bytes, newline excluded): a line is never buffered past this. */
    static final int MAX_LINE = 4096;
    /** Longest encoded value (job id, endpoint, reason): keeps every line under {@link #MAX_LINE}. */
    static final int MAX_FIELD = 1024;
    /** Most ranks one rendezvous serves; the client checks a server's count against it too. */
    static final int MAX_RANKS = 1 << 20;

    private Wire() {
    }

    /**
     * @return the proof of the server ({@code server}) or of the rank, over the hello's job id, rank
     *         and endpoint and both nonces ({@link SecretProof})
     */
    static byte[] proof(byte[] secret, boolean server, String job, int rank, String endpoint, byte[] rankNonce,
                        byte[] serverNonce) {
        return SecretProof.of(secret, server ? "jspin rendezvous server" : "jspin rendezvous rank",
                SecretProof.utf8(job), SecretProof.int32(rank), SecretProof.utf8(endpoint), rankNonce, serverNonce);
    }

    /** @return the reason a server gives for refusing the hello of a rank of job {@code job}; its own is {@code jobId} */
    static String otherJob(String job, String jobId) {
        return OTHER_JOB + printable(job, 64) + OTHER_JOB_MIDDLE + jobId + "'";
    }

    /** @return whether a refusal's reason is {@link #otherJob}'s: a server of another job holds the address */
    static boolean isOtherJob(String reason) {
        return reason.startsWith(OTHER_JOB) && reason.contains(OTHER_JOB_MIDDLE);
    }

    /** @return {@code s} percent-encoded: printable ASCII other than '%' and space kept, every other UTF-8 byte as %XX */
    static String encode(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(utf8.length);
        for (byte x : utf8) {
            int c = x & 0xff;
            if (c > 0x20 && c < 0x7f && c != '%') {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return b.toString();
    }

    /**
     * @return the value {@code field} encodes
     * @throws ProtocolException for a bad escape or bytes that are not UTF-8
     */
    static String decode(String field, String what) throws ProtocolException {
        byte[] out = new byte[field.length()];
        int n = 0;
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '%') {
                int hi = i + 1 < field.length() ? Character.digit(field.charAt(i + 1), 16) : -1;
                int lo = i + 2 < field.length() ? Character.digit(field.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new ProtocolException("bad %-escape at column " + i + " of the " + what);
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = (byte) c;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new ProtocolException("the " + what + " is not UTF-8");
        }
    }

    /** Writes one line (the fields joined by spaces) in a single write, so it is never split by another writer. */
    static void writeLine(OutputStream out, String... fields) throws IOException {
        out.write(line(fields));
        out.flush();
    }

    /** @return the bytes of one line: the fields joined by spaces, then a newline */
    static byte[] line(String... fields) {
        return (String.join(" ", fields) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return the {@link #ERROR} line for {@code reason}, cut to keep it under the field limit (a long list of missing ranks, say) */
    static byte[] errorLine(String reason) {
        String clipped = reason.length() > MAX_FIELD / 3 ? reason.substring(0, MAX_FIELD / 3 - 3) + "..." : reason;
        return line(VERSION, ERROR, encode(clipped));
    }

    /** @return the {@link #ENDPOINTS} message: the header, one {@link #EP} line per rank in order, and {@link #END} */
    static byte[] endpointsMessage(List<String> endpoints) {
        StringBuilder b = new StringBuilder();
        b.append(VERSION).append(' ').append(ENDPOINTS).append(' ').append(endpoints.size()).append('\n');
        for (int rank = 0; rank < endpoints.size(); rank++) {
            b.append(EP).append(' ').append(rank).append(' ').append(encode(endpoints.get(rank))).append('\n');
        }
        b.append(VERSION).append(' ').append(END).append('\n');
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** @throws MpiException ERR_ARG for a job id or secret that a hello cannot carry (a secret of fewer than 16 characters) */
    static void checkJobAndSecret(String jobId, String secret) {
        if (jobId == null || jobId.isBlank() || encode(jobId).length() > MAX_FIELD) {
            throw new MpiException(ErrorClass.ERR_ARG, "job id must be non-blank and at most " + MAX_FIELD
                    + " bytes encoded, got '" + (jobId == null ? null : printable(jobId, 64)) + "'");
        }
        if (secret == null || secret.length() < 16 || encode(secret).length() > MAX_FIELD) {
            throw new MpiException(ErrorClass.ERR_ARG, "the job secret must have 16 to " + MAX_FIELD
                    + " characters, got " + (secret == null ? "none" : secret.length()));
        }
    }

    /** @return at most {@code max} characters of {@code s} with anything unprintable escaped, for messages */
    static String printable(String s, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < max; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return s.length() > max ? b + "..." : b.toString();
    }

    /** A parsed {@code host:port} ({@code [v6]:port} for IPv6 literals). */
    record HostPort(String host, int port) {
        /** @throws MpiException ERR_ARG naming the address if it is not {@code host:port} with a port in [minPort, 65535] */
        static HostPort parse(String address, int minPort) {
            if (address == null || address.isBlank()) {
                throw new MpiException(ErrorClass.ERR_ARG, "rendezvous address must be host:port, got '" + address + "'");
            }
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || colon == address.length() - 1) {
                throw new MpiException(ErrorClass.ERR_ARG, "rendezvous address must be host:port, got '" + address + "'");
            }
            String host = address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (host.isBlank() || port < minPort || port > 65535) {
                throw new MpiException(ErrorClass.ERR_ARG, "rendezvous address must be host:port with a port in ["
                        + minPort + ", 65535], got '" + address + "'");
            }
            return new HostPort(host, port);
        }

        /** @return {@code host:port}, bracketing an IPv6 literal */
        static String format(String host, int port) {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * Reads lines ({@code '\n'}-terminated, a {@code '\r'} before it dropped) from a socket into a fixed buffer of {@link #MAX_LINE} bytes, so a peer that never
     * sends a newline costs at most that much memory. With a deadline set, every read is bounded by
     * the time left ({@link Socket#setSoTimeout}), so a trickling peer cannot stretch it either.
     */
    static final class LineReader {
        private final Socket socket;
        private final InputStream in;
        private final byte[] buf = new byte[MAX_LINE + 1];
        private int start;
        private int end;
        private long deadline;
        private boolean hasDeadline;

        LineReader(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        /** Bounds every later read by {@code deadlineNanos} ({@link System#nanoTime()} based). */
        void deadline(long deadlineNanos) {
            this.deadline = deadlineNanos;
            this.hasDeadline = true;
        }

        /** Lifts the deadline: reads block until data, end of stream, or the socket closes. */
        void noDeadline() throws IOException {
            hasDeadline = false;
            socket.setSoTimeout(0);
        }

        /**
         * @return the next line without its newline, or null at a clean end of stream
         * @throws SocketTimeoutException when the deadline passes first
         * @throws ProtocolException      for a line over {@link #MAX_LINE} bytes, an unprintable byte,
         *                                or a stream ending mid-line
         */
        String readLine() throws IOException {
            int scanned = start;
            while (true) {
                for (int i = scanned; i < end; i++) {
                    if (buf[i] == '\n') {
                        // tolerate CRLF so a stray HTTP or telnet peer gets a readable refusal
                        String line = ascii(start, i > start && buf[i - 1] == '\r' ? i - 1 : i);
                        start = i + 1;
                        return line;
                    }
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                scanned = end;
                if (end == buf.length) {
                    throw new ProtocolException("line longer than " + MAX_LINE + " bytes");
                }
                int r = fill();
                if (r < 0) {
                    if (end == start) {
                        return null;
                    }
                    throw new ProtocolException("connection closed after " + (end - start) + " bytes of an unterminated line");
                }
                end += r;
            }
        }

        /** @return the next byte, or -1 at end of stream; for watching a connection that should stay silent */
        int read() throws IOException {
            if (start < end) {
                return buf[start++] & 0xff;
            }
            boundRead();
            return in.read();
        }

        private String ascii(int from, int to) throws IOException {
            for (int i = from; i < to; i++) {
                int c = buf[i] & 0xff;
                if (c < 0x20 || c >= 0x7f) {
                    throw new ProtocolException(String.format("byte 0x%02x at column %d is not printable ASCII", c, i - from));
                }
            }
            return new String(buf, from, to - from, StandardCharsets.US_ASCII);
        }

        private void boundRead() throws IOException {
            if (hasDeadline) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException("deadline passed");
                }
                socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            }
        }

        private int fill() throws IOException {
            boundRead();
            return in.read(buf, end, buf.length - end);
        }
    }
}
