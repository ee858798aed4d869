package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SocketsTest {
    @Test
    void aRefusedPeerReadsTheReasonEvenWithUnreadInputLeft() throws IOException {
        try (LoopbackPair pair = new LoopbackPair()) {
            OutputStream out = pair.peer.getOutputStream();
            out.write(new byte[10_000]); // input the server never reads as lines: the drain takes it
            out.flush();
            long start = System.nanoTime();
            Sockets.refuse(pair.server, "wrong secret");
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000, "the drain is bounded");
            assertTrue(pair.server.isClosed());
            assertEquals(Wire.VERSION + " " + Wire.ERROR + " wrong%20secret", pair.peerIn.readLine());
            assertNull(pair.peerIn.readLine(), "then the end");
        }
    }

    @Test
    void refusingAPeerThatIsGoneIsNoError() throws IOException {
        try (LoopbackPair pair = new LoopbackPair()) {
            pair.peer.close();
            pair.server.close();
            Sockets.refuse(pair.server, "late");
            assertTrue(pair.server.isClosed());
        }
    }

    @Test
    void closeQuietlyTakesNullAndFailingCloses() {
        Sockets.closeQuietly(null);
        boolean[] called = {false};
        Sockets.closeQuietly(() -> {
            called[0] = true;
            throw new IOException("already broken");
        });
        assertTrue(called[0]);
    }
}
