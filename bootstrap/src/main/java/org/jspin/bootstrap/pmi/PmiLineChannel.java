package org.jspin.bootstrap.pmi;

import java.io.IOException;

/**
 * A bidirectional stream of text lines to a PMI-1 server: the one thing {@link Pmi1Client} needs from
 * its transport, so the protocol can be tested over any connected pair.
 *
 * <p>Not thread-safe: one request-and-reply at a time (the client serialises its calls).
 */
interface PmiLineChannel extends AutoCloseable {
    /**
     * Sends one line; the channel appends the terminating newline.
     *
     * @param line          the line, without a newline
     * @param deadlineNanos the {@link System#nanoTime()} by which the line must be written (where the
     *                      transport can bound a write at all)
     * @throws java.net.SocketTimeoutException when the deadline passes first
     * @throws IOException                     when the transport fails
     */
    void writeLine(String line, long deadlineNanos) throws IOException;

    /**
     * Receives one line.
     *
     * @param deadlineNanos the {@link System#nanoTime()} by which a whole line must have arrived
     * @return the line without its newline
     * @throws java.net.SocketTimeoutException when the deadline passes first
     * @throws java.io.EOFException            when the server closed the connection
     * @throws IOException                     when the transport fails or the line is absurdly long
     */
    String readLine(long deadlineNanos) throws IOException;

    /** @return where this channel goes, for messages ({@code PMI_FD=6}, {@code PMI_PORT=host:port}) */
    String describe();

    /** Closes the transport; idempotent. */
    @Override
    void close() throws IOException;
}
