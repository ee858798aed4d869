package org.jspin.bootstrap.pmi;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/** PMI-1 lines over a TCP connection (Hydra's {@code -pmi-port} mode); reads time out through {@code SO_TIMEOUT}. */
final class SocketLineChannel extends BufferedLineChannel {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String description;

    /**
     * @param socket      a connected socket, owned from now on
     * @param description where it goes, for messages
     */
    SocketLineChannel(Socket socket, String description) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.description = description;
    }

    @Override
    protected int fill(byte[] into, int off, int len, long deadlineNanos) throws IOException {
        socket.setSoTimeout(millisLeft(deadlineNanos, "waiting for a line from " + description));
        return in.read(into, off, len);
    }

    @Override
    protected void writeFully(byte[] bytes, long deadlineNanos) throws IOException {
        out.write(bytes);
        out.flush();
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
