package org.jspin.bootstrap.pmi;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What Hydra tells a rank in its environment, and the connection it names: {@code PMI_FD} with
 * {@code PMI_RANK} and {@code PMI_SIZE}, or {@code PMI_PORT} with {@code PMI_ID}. A variable that is
 * missing or malformed is refused with ERR_OTHER naming it and its value.
 */
final class PmiEnvironment {
    private PmiEnvironment() {
    }

    /** Connects and initialises as {@link Pmi1Client#connect(Map, Duration)} describes. */
    static Pmi1Client connect(Map<String, String> env, Duration timeout) {
        Objects.requireNonNull(env, "env");
        Deadline deadline = Deadline.after(timeout);
        String fdText = env.get("PMI_FD");
        if (fdText != null) {
            int fd = integer("PMI_FD", fdText, 0, "a file descriptor number");
            int size = integer("PMI_SIZE", require(env, "PMI_SIZE", "PMI_FD"), 1, "a job size");
            int rank = integer("PMI_RANK", require(env, "PMI_RANK", "PMI_FD"), 0, "a rank");
            if (rank >= size) {
                throw new MpiException(ErrorClass.ERR_OTHER, "PMI_RANK=" + rank + " is not below PMI_SIZE=" + size);
            }
            PmiLineChannel channel;
            try {
                channel = new FdLineChannel(fd);
            } catch (IOException e) {
                throw new MpiException(ErrorClass.ERR_OTHER, "cannot use PMI_FD=" + fd + ": " + e.getMessage(), e);
            }
            return Pmi1Handshake.start(channel, rank, size, timeout, deadline);
        }
        String port = env.get("PMI_PORT");
        if (port != null) {
            InetSocketAddress address = hostPort(port);
            String id = Integer.toString(integer("PMI_ID", require(env, "PMI_ID", "PMI_PORT"), 0, "a process id"));
            Socket socket = new Socket();
            try {
                socket.connect(address, BufferedLineChannel.millisLeft(deadline.nanos(), "connecting"));
                socket.setTcpNoDelay(true);
                return Pmi1Handshake.startWithInitack(new SocketLineChannel(socket, "PMI_PORT=" + port), id, timeout,
                        deadline);
            } catch (IOException e) {
                Pmi1Handshake.closeQuietly(socket);
                throw new MpiException(ErrorClass.ERR_OTHER, "cannot connect to the process manager at PMI_PORT="
                        + port + " within " + timeout + ": " + e, e);
            }
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "neither PMI_FD nor PMI_PORT is set: this process was not"
                + " started by a PMI-1 process manager such as mpiexec.hydra");
    }

    /** @return the value of {@code name}, which {@code because} being set requires */
    static String require(Map<String, String> env, String name, String because) {
        String value = env.get(name);
        if (value == null) {
            throw new MpiException(ErrorClass.ERR_OTHER, because + " is set but " + name + " is missing");
        }
        return value;
    }

    /** @return {@code text} (variable {@code name}) as an integer of at least {@code min}, being {@code what} */
    static int integer(String name, String text, int min, String what) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_OTHER, name + "='" + Pmi1Words.quote(text) + "' is not " + what
                + " (an integer >= " + min + ")");
    }

    /** @return {@code PMI_PORT}'s {@code host:port} ({@code [v6]:port} too), resolved */
    static InetSocketAddress hostPort(String text) {
        int colon = text.lastIndexOf(':');
        String host = colon > 0 ? text.substring(0, colon) : "";
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI_PORT='" + Pmi1Words.quote(text) + "' is not host:port");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI_PORT='" + text + "': cannot resolve host '" + host + "'");
        }
        return address;
    }
}
