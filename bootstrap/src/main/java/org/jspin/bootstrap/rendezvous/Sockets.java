package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/** What a rendezvous server does to a connection it is done with: refuse it with a reason, or close it quietly. */
final class Sockets {
    /** After an ERROR, how much of a refused peer's unread input is drained (so the close does not reset the reply away). */
    static final int DRAIN_BYTES = 64 * 1024;
    /** How long that drain may take. */
    static final int DRAIN_MILLIS = 200;

    private Sockets() {
    }

    /**
     * Replies with an {@code ERROR} line, stops writing, drains at most {@link #DRAIN_BYTES} of input
     * for at most {@link #DRAIN_MILLIS} (unread input would make the close reset the connection,
     * and the peer could lose the reply), and closes. A peer that is gone or silent is no error.
     *
     * @throws IOException when the reply cannot be sent for another reason (the socket is closed all the same)
     */
    static void refuse(Socket s, String reason) throws IOException {
        try {
            s.getOutputStream().write(Wire.errorLine(reason));
            s.getOutputStream().flush();
            s.shutdownOutput();
            s.setSoTimeout(DRAIN_MILLIS);
            InputStream in = s.getInputStream();
            byte[] sink = new byte[4096];
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            for (int n = 0; n < DRAIN_BYTES && System.nanoTime() < until; ) {
                int r = in.read(sink);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (SocketException | SocketTimeoutException e) {
            // the peer is gone or silent: nothing more to do for it
        } finally {
            closeQuietly(s);
        }
    }

    /** Closes {@code c} if there is one; closing is best effort. */
    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
    }
}
