package org.jspin.transport.netty.bootstrap.rendezvous;

import static org.jspin.transport.netty.bootstrap.rendezvous.RendezvousServerTest.JOB;
import static org.jspin.transport.netty.bootstrap.rendezvous.RendezvousServerTest.LONG;
import static org.jspin.transport.netty.bootstrap.rendezvous.RendezvousServerTest.SECRET;
import static org.jspin.transport.netty.bootstrap.rendezvous.RendezvousServerTest.assertArg;
import static org.jspin.transport.netty.bootstrap.rendezvous.RendezvousServerTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client against fake servers that misbehave, against nothing, and against a slow real server. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RendezvousClientTest {
    private static final Duration SHORT = Duration.ofMillis(500);

    /** What a fake server does with one accepted connection. */
    interface Behaviour {
        void serve(Socket s) throws IOException, InterruptedException;
    }

    /** A one-connection fake server; the test talks to {@link #address()}. */
    static final class Fake implements AutoCloseable {
        final ServerSocket listener;

        Fake(Behaviour b) throws IOException {
            listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                try (Socket s = listener.accept()) {
                    b.serve(s);
                } catch (IOException | InterruptedException e) {
                    // the test is over or the client went away
                }
            });
        }

        String address() {
            return "127.0.0.1:" + listener.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    private static MpiException exchangeFails(String address, Duration timeout) {
        MpiException e = assertThrows(MpiException.class,
                () -> new RendezvousClient(address, JOB, SECRET).exchange(0, "me:1", timeout));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass(), e::getMessage);
        assertContains(e.getMessage(), "rendezvous at " + address);
        return e;
    }

    private static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String readHello(Socket s) throws IOException {
        Wire.LineReader in = new Wire.LineReader(s);
        return in.readLine();
    }

    @Test
    void noServerAtAllTimesOutNamingTheRefusal() {
        int port = freePort();
        long t0 = System.nanoTime();
        MpiException e = exchangeFails("127.0.0.1:" + port, SHORT);
        long took = System.nanoTime() - t0;
        assertContains(e.getMessage(), "could not connect within 500 ms: connection refused");
        assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(450) && took < TimeUnit.SECONDS.toNanos(5), "took " + took + " ns");
    }

    @Test
    void aServerThatNeverAnswersTimesOutOnTime() throws Exception {
        try (Fake f = new Fake(s -> Thread.sleep(10_000))) {
            long t0 = System.nanoTime();
            MpiException e = exchangeFails(f.address(), SHORT);
            assertContains(e.getMessage(), "timed out after 500 ms waiting for the server to accept the hello");
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
        }
    }

    @Test
    void aServerThatAcceptsButNeverSendsTheListTimesOutOnTime() throws Exception {
        try (Fake f = new Fake(s -> {
            readHello(s);
            send(s, "JSPIN-RDV/1 ACCEPTED\n");
            Thread.sleep(10_000);
        })) {
            assertContains(exchangeFails(f.address(), SHORT).getMessage(),
                    "timed out after 500 ms waiting for the other ranks (hello accepted)");
        }
    }

    @Test
    void aServerThatTricklesBytesCannotStretchTheTimeout() throws Exception {
        try (Fake f = new Fake(s -> {
            readHello(s);
            for (int i = 0; i < 100; i++) {
                send(s, "J");
                Thread.sleep(50);
            }
        })) {
            long t0 = System.nanoTime();
            assertContains(exchangeFails(f.address(), SHORT).getMessage(), "timed out after 500 ms");
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(3));
        }
    }

    @Test
    void aServerThatClosesIsNamedAsSuch() throws Exception {
        try (Fake f = new Fake(s -> readHello(s))) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(),
                    "the server closed the connection while waiting for the server to accept the hello");
        }
        try (Fake f = new Fake(s -> {
            readHello(s);
            send(s, "JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 3\nEP 0 me:1\n");
        })) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(), "the server closed the connection after 1 of 3 endpoints");
        }
    }

    @Test
    void malformedRepliesAreRefused() throws Exception {
        String[][] cases = {
            {"HTTP/1.1 200 OK\n", "expected a JSPIN-RDV/1 line, got 'HTTP/1.1 200 OK'"},
            {"JSPIN-RDV/1 ENDPOINTS 1\n", "expected ACCEPTED"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS many\n", "endpoint count 'many' is not in [1, 1048576]"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 2000000000\n", "endpoint count '2000000000'"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 2\nEP 1 a:1\n", "expected 'EP 0 <endpoint>', got 'EP 1 a:1'"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 1\nEP 0 me:1\nJSPIN-RDV/1 MORE\n", "expected END after 1 endpoints"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 1\nEP 0 you:1\nJSPIN-RDV/1 END\n", "does not hold ours ('me:1') at rank 0"},
            {"JSPIN-RDV/1 ACCEPTED\nJSPIN-RDV/1 ENDPOINTS 1\nEP 0 me%G1\n", "bad %-escape"},
        };
        for (String[] c : cases) {
            try (Fake f = new Fake(s -> {
                readHello(s);
                send(s, c[0]);
                Thread.sleep(2_000);
            })) {
                String message = exchangeFails(f.address(), LONG).getMessage();
                assertContains(message, "malformed reply while");
                assertContains(message, c[1]);
            }
        }
    }

    @Test
    void anEndlessReplyLineIsCappedNotBuffered() throws Exception {
        try (Fake f = new Fake(s -> {
            readHello(s);
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) 'x');
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 1024; i++) { // 64 MiB if the client kept reading
                out.write(chunk);
            }
        })) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(), "line longer than 4096 bytes");
        }
    }

    @Test
    void theHelloCarriesEverythingEncoded() throws Exception {
        String[] seen = new String[1];
        try (Fake f = new Fake(s -> {
            seen[0] = readHello(s);
            send(s, "JSPIN-RDV/1 ERROR no%20thanks\n");
        })) {
            MpiException e = assertThrows(MpiException.class,
                    () -> new RendezvousClient(f.address(), "j b", SECRET).exchange(3, "h:1 x", LONG));
            assertContains(e.getMessage(), "refused by the server: no thanks");
            assertContains(e.getMessage(), "rank 3");
        }
        assertEquals("JSPIN-RDV/1 HELLO j%20b 3 " + SECRET + " h:1%20x", seen[0]);
    }

    @Test
    void aClientStartedBeforeItsServerRetriesUntilItIsUp() throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        var early = RendezvousServerTest.rank(address, JOB, SECRET, 1, "early:1", LONG);
        Thread.sleep(300);
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", port, JOB, SECRET, 2, LONG)) {
            assertEquals(address, server.address());
            var late = RendezvousServerTest.rank(address, JOB, SECRET, 0, "late:0", LONG);
            assertEquals(List.of("late:0", "early:1"), early.get(20, TimeUnit.SECONDS));
            assertEquals(List.of("late:0", "early:1"), late.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void badArgumentsAreRefusedNamingTheValue() {
        assertArg(() -> new RendezvousClient("localhost", JOB, SECRET), "'localhost'");
        assertArg(() -> new RendezvousClient("localhost:0", JOB, SECRET), "'localhost:0'");
        assertArg(() -> new RendezvousClient("localhost:x", JOB, SECRET), "'localhost:x'");
        assertArg(() -> new RendezvousClient("localhost:1", " ", SECRET), "job id");
        assertArg(() -> new RendezvousClient("localhost:1", JOB, null), "got none");
        RendezvousClient c = new RendezvousClient("[::1]:1", JOB, SECRET);
        assertArg(() -> c.exchange(-1, "a:1", LONG), "got -1");
        assertArg(() -> c.exchange(0, "", LONG), "endpoint");
        assertArg(() -> c.exchange(0, "a:1", Duration.ofSeconds(-1)), "PT-1S");
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
