package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** How a rendezvous server gets its listening socket, a fixed port included. */
final class ListenerBinding {
    /** How long binding a fixed port is retried while it is busy. */
    private static final long BIND_RETRY_MILLIS = 1000;

    private ListenerBinding() {
    }

    /**
     * Binds {@code host:port} with a backlog fitting {@code size} ranks; a fixed port that is busy is
     * retried for {@link #BIND_RETRY_MILLIS}.
     *
     * @throws MpiException ERR_OTHER naming the address if it cannot be bound, or if interrupted
     */
    static ServerSocket bind(String host, int port, int size) {
        ServerSocket listener = null;
        try {
            // a fixed port can be briefly held by a client of this very job that dialled it before we
            // listened and met itself (TCP self-connect; the client drops such a socket at once)
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(port == 0 ? 0 : BIND_RETRY_MILLIS);
            while (true) {
                listener = new ServerSocket();
                // rank 0 rebinds a fixed port job after job: do not let the last job's TIME_WAIT refuse it
                listener.setReuseAddress(true);
                try {
                    listener.bind(new InetSocketAddress(InetAddress.getByName(host), port), Math.clamp(size, 50, 4096));
                    return listener;
                } catch (BindException busy) {
                    Sockets.closeQuietly(listener);
                    if (System.nanoTime() > until) {
                        throw busy;
                    }
                    Thread.sleep(10);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while binding the rendezvous server to "
                    + host + ":" + port);
        } catch (IOException e) {
            Sockets.closeQuietly(listener);
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot bind the rendezvous server to "
                    + Wire.HostPort.format(host, port) + ": " + e.getMessage(), e);
        }
    }
}
