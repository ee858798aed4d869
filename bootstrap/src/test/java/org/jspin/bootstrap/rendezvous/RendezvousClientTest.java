package org.jspin.bootstrap.rendezvous;

import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.JOB;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.LONG;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.SECRET;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.assertArg;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

import org.jspin.bootstrap.SecretProof;
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

    /**
     * Plays a server through the challenge: reads the hello, proves {@code secret} in a challenge
     * and reads the rank's proof (null if it sent none). @return the hello and the proof line
     */
    private static String[] challenge(Socket s, String secret) throws IOException {
        Wire.LineReader in = new Wire.LineReader(s);
        String hello = in.readLine();
        String[] f = hello.split(" ");
        byte[] serverNonce = SecretProof.nonce();
        byte[] proof = Wire.proof(secret.getBytes(StandardCharsets.UTF_8), true, Wire.decode(f[2], "job"),
                Integer.parseInt(f[3]), Wire.decode(f[5], "endpoint"), SecretProof.unhex(f[4]), serverNonce);
        send(s, Wire.VERSION + " " + Wire.CHALLENGE + " " + SecretProof.hex(serverNonce) + " " + SecretProof.hex(proof) + "\n");
        return new String[] {hello, in.readLine()};
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
            assertContains(e.getMessage(), "timed out after 500 ms waiting for the server's challenge");
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
        }
    }

    @Test
    void aServerThatAcceptsButNeverSendsTheListTimesOutOnTime() throws Exception {
        try (Fake f = new Fake(s -> {
            challenge(s, SECRET);
            send(s, Wire.VERSION + " ACCEPTED\n");
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
                    "the server closed the connection while waiting for the server's challenge");
        }
        try (Fake f = new Fake(s -> challenge(s, SECRET))) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(),
                    "the server closed the connection while waiting for the server to accept the hello");
        }
        try (Fake f = new Fake(s -> {
            challenge(s, SECRET);
            send(s, "JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 3\nEP 0 me:1\n");
        })) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(), "the server closed the connection after 1 of 3 endpoints");
        }
    }

    @Test
    void malformedRepliesAreRefused() throws Exception {
        String[][] cases = {
            {"HTTP/1.1 200 OK\n", "expected a JSPIN-RDV/2 line, got 'HTTP/1.1 200 OK'"},
            {"JSPIN-RDV/2 ENDPOINTS 1\n", "expected ACCEPTED"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS many\n", "endpoint count 'many' is not in [1, 1048576]"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 2000000000\n", "endpoint count '2000000000'"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 2\nEP 1 a:1\n", "expected 'EP 0 <endpoint>', got 'EP 1 a:1'"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 1\nEP 0 me:1\nJSPIN-RDV/2 MORE\n", "expected END after 1 endpoints"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 1\nEP 0 you:1\nJSPIN-RDV/2 END\n", "does not hold ours ('me:1') at rank 0"},
            {"JSPIN-RDV/2 ACCEPTED\nJSPIN-RDV/2 ENDPOINTS 1\nEP 0 me%G1\n", "bad %-escape"},
            {"JSPIN-RDV/2 CHALLENGE 00 11\n", "expected CHALLENGE <nonce> <proof>"},
        };
        for (String[] c : cases) {
            try (Fake f = new Fake(s -> {
                if (c[0].contains("CHALLENGE")) {
                    readHello(s);
                } else {
                    challenge(s, SECRET);
                }
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
    void theHelloCarriesEverythingEncodedButTheSecret() throws Exception {
        String[] seen = new String[1];
        try (Fake f = new Fake(s -> {
            seen[0] = readHello(s);
            send(s, "JSPIN-RDV/2 ERROR no%20thanks\n");
        })) {
            MpiException e = assertThrows(MpiException.class,
                    () -> new RendezvousClient(f.address(), "j b", SECRET).exchange(3, "h:1 x", LONG));
            assertContains(e.getMessage(), "refused by the server: no thanks");
            assertContains(e.getMessage(), "rank 3");
        }
        assertTrue(seen[0].matches("JSPIN-RDV/2 HELLO j%20b 3 [0-9a-f]{64} h:1%20x"), seen[0]);
        assertFalse(seen[0].contains(SECRET), "the secret stays home");
    }

    @Test
    void aServerThatCannotProveTheSecretIsLeftBeforeTheRankProvesAnything() throws Exception {
        java.util.concurrent.CompletableFuture<String[]> seen = new java.util.concurrent.CompletableFuture<>();
        try (Fake f = new Fake(s -> seen.complete(challenge(s, "an impostor's guess, 32 characters")))) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(),
                    "the server could not prove that it holds the job secret");
            assertNull(seen.get(10, TimeUnit.SECONDS)[1], "the rank sent no proof to a server that could not prove the secret");
        }
    }

    @Test
    void theRanksProofAnswersTheServersChallenge() throws Exception {
        java.util.concurrent.CompletableFuture<String[]> seen = new java.util.concurrent.CompletableFuture<>();
        try (Fake f = new Fake(s -> {
            seen.complete(challenge(s, SECRET));
            send(s, "JSPIN-RDV/2 ERROR enough\n");
        })) {
            assertContains(exchangeFails(f.address(), LONG).getMessage(), "refused by the server: enough");
            String proof = seen.get(10, TimeUnit.SECONDS)[1];
            assertTrue(proof.matches("JSPIN-RDV/2 PROOF [0-9a-f]{64}"), proof);
        }
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
