package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RawTcpSocketTest {
    @Test
    void bytesCrossAConnectionBothWaysAndAnEmptySocketReadsNothing() throws Exception {
        try (RawTcpSocket server = RawTcpSocket.listenLoopback();
             RawTcpSocket client = RawTcpSocket.connectLoopback(server.port());
             RawTcpSocket accepted = server.accept();
             Arena arena = Arena.ofConfined()) {
            client.noDelay();
            client.congestionControl("reno");
            MemorySegment out = arena.allocate(300_000);
            for (long i = 0; i < out.byteSize(); i++) {
                out.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            MemorySegment in = arena.allocate(out.byteSize() + 10);
            assertEquals(0, accepted.read(in, 0, 10), "nothing sent yet: a non-blocking read gets nothing");
            long sent = 0;
            long got = 0;
            while (got < out.byteSize()) { // both ends from one thread: the kernel's buffers may fill
                if (sent < out.byteSize()) {
                    sent += client.write(out, sent, out.byteSize() - sent);
                }
                got += accepted.read(in, 5 + got, out.byteSize() - got);
            }
            assertEquals(-1, out.mismatch(in.asSlice(5, out.byteSize())));
            accepted.write(out, 0, 1);
            long n = 0;
            while (n == 0) {
                n = client.read(in, 0, 1);
            }
            assertEquals(out.get(ValueLayout.JAVA_BYTE, 0), in.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void aClosedPeerIsAnEndOfFile() throws Exception {
        try (RawTcpSocket server = RawTcpSocket.listenLoopback();
             RawTcpSocket client = RawTcpSocket.connectLoopback(server.port());
             Arena arena = Arena.ofConfined()) {
            server.accept().close();
            MemorySegment in = arena.allocate(8);
            EOFException e = assertThrows(EOFException.class, () -> {
                while (true) {
                    client.read(in, 0, 8);
                }
            });
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void aRefusedConnectionAndAnUnknownCongestionControlAreNamed() throws Exception {
        int port;
        try (RawTcpSocket server = RawTcpSocket.listenLoopback()) {
            port = server.port();
        }
        IOException refused = assertThrows(IOException.class, () -> RawTcpSocket.connectLoopback(port));
        assertTrue(refused.getMessage().contains("connect(127.0.0.1:" + port + ")")
                && refused.getMessage().contains("errno"), refused.getMessage());
        try (RawTcpSocket server = RawTcpSocket.listenLoopback();
             RawTcpSocket client = RawTcpSocket.connectLoopback(server.port())) {
            IOException e = assertThrows(IOException.class, () -> client.congestionControl("no_such_cc"));
            assertTrue(e.getMessage().contains("'no_such_cc'"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> RawTcpSocket.connectLoopback(0));
        assertThrows(IllegalArgumentException.class, () -> RawTcpSocket.connectLoopback(70_000));
    }

    @Test
    void onlyNativeMemoryWithinItsBoundsIsReadOrWritten() throws Exception {
        try (RawTcpSocket server = RawTcpSocket.listenLoopback();
             RawTcpSocket client = RawTcpSocket.connectLoopback(server.port());
             Arena arena = Arena.ofConfined()) {
            MemorySegment heap = MemorySegment.ofArray(new byte[16]);
            assertThrows(IllegalArgumentException.class, () -> client.write(heap, 0, 16));
            MemorySegment b = arena.allocate(16);
            assertThrows(IndexOutOfBoundsException.class, () -> client.write(b, 8, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> client.read(b, -1, 4));
            Arena closed = Arena.ofConfined();
            MemorySegment gone = closed.allocate(16);
            closed.close();
            assertThrows(IllegalStateException.class, () -> client.write(gone, 0, 16));
        }
    }
}
