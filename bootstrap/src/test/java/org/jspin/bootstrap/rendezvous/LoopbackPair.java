package org.jspin.bootstrap.rendezvous;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Two ends of one loopback TCP connection: the server's ({@link #server}) and a peer that writes and reads lines. */
final class LoopbackPair implements AutoCloseable {
    final Socket server;
    final Socket peer;
    final BufferedReader peerIn;

    LoopbackPair() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            peer = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            server = listener.accept();
        }
        peerIn = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** Sends {@code line} and a newline from the peer. */
    void peerSends(String line) throws IOException {
        OutputStream out = peer.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        peer.close();
        server.close();
    }
}
