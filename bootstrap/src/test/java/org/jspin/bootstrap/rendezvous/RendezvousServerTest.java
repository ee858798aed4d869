package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.jspin.bootstrap.SecretProof;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rendezvous server with real clients on threads, and with hand-written (bad) hellos on raw sockets. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RendezvousServerTest {
    static final String JOB = "job-42.a:b";
    static final String SECRET = "0123456789abcdef-secret";
    static final Duration LONG = Duration.ofSeconds(10);

    static String endpoint(int rank) {
        return "10.0.0." + rank + ":" + (4000 + rank);
    }

    /** Starts {@code rank}'s exchange on its own thread. */
    static CompletableFuture<List<String>> rank(String address, String job, String secret, int rank, String endpoint, Duration timeout) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("rank-" + rank).start(() -> {
            try {
                f.complete(new RendezvousClient(address, job, secret).exchange(rank, endpoint, timeout));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    static CompletableFuture<List<String>> rank(String address, int rank, Duration timeout) {
        return rank(address, JOB, SECRET, rank, endpoint(rank), timeout);
    }

    static List<String> expected(int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(endpoint(i));
        }
        return l;
    }

    /** @return the MpiException the future failed with */
    static MpiException failure(CompletableFuture<?> f) throws InterruptedException {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof MpiException, () -> "expected an MpiException, got " + e.getCause());
        MpiException m = (MpiException) e.getCause();
        assertEquals(ErrorClass.ERR_OTHER, m.errorClass(), m::getMessage);
        return m;
    }

    static void assertContains(String haystack, String needle) {
        assertTrue(haystack.contains(needle), () -> "'" + haystack + "' does not mention '" + needle + "'");
    }

    /** Polls until {@code server} misses exactly {@code missing}. */
    static void awaitMissing(RendezvousServer server, List<Integer> missing) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!server.missingRanks().equals(missing) && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertEquals(missing, server.missingRanks());
    }

    /** Sends {@code bytes} on a raw connection and returns the server's first line (null if it just closed). */
    static String rawExchange(String address, byte[] bytes) throws IOException {
        Wire.HostPort hp = Wire.HostPort.parse(address, 1);
        try (Socket s = new Socket(hp.host(), hp.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

    /** A nonce for hellos written by hand. */
    static final String NONCE = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    static String hello(String job, String rank, String nonce, String endpoint) {
        return String.join(" ", Wire.VERSION, Wire.HELLO, Wire.encode(job), rank, nonce, Wire.encode(endpoint)) + "\n";
    }

    /**
     * Plays a rank by hand on {@code s}: the hello, then the proof for the server's challenge made
     * with {@code secret}; @return the lines written (hello and proof, for a replay)
     */
    static List<String> prove(Socket s, BufferedReader in, String job, int rank, String endpoint, String secret)
            throws IOException {
        String hello = hello(job, Integer.toString(rank), NONCE, endpoint);
        s.getOutputStream().write(hello.getBytes(StandardCharsets.US_ASCII));
        String[] c = in.readLine().split(" ");
        assertEquals(Wire.CHALLENGE, c[1], String.join(" ", c));
        byte[] proof = Wire.proof(secret.getBytes(StandardCharsets.UTF_8), false, job, rank, endpoint,
                SecretProof.unhex(NONCE), SecretProof.unhex(c[2]));
        String line = Wire.VERSION + " " + Wire.PROOF + " " + SecretProof.hex(proof) + "\n";
        s.getOutputStream().write(line.getBytes(StandardCharsets.US_ASCII));
        return List.of(hello, line);
    }

    @Test
    void theSecretNeverCrossesTheWireAndARecordedHelloAndProofCannotBeReplayed() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG)) {
            Wire.HostPort hp = Wire.HostPort.parse(server.address(), 1);
            List<String> recorded;
            try (Socket s = new Socket(hp.host(), hp.port())) {
                var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                recorded = prove(s, in, JOB, 1, "real:1", SECRET);
                assertEquals(Wire.VERSION + " " + Wire.ACCEPTED, in.readLine(), "the genuine rank is accepted");
                for (String line : recorded) {
                    assertTrue(!line.contains(SECRET) && !line.contains(Wire.encode(SECRET)), line);
                }
            }
            awaitMissing(server, List.of(0, 1)); // it went away: its slot is free again
            try (Socket s = new Socket(hp.host(), hp.port())) {
                var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                s.getOutputStream().write(recorded.get(0).getBytes(StandardCharsets.US_ASCII));
                assertTrue(in.readLine().startsWith(Wire.VERSION + " " + Wire.CHALLENGE), "a fresh challenge");
                s.getOutputStream().write(recorded.get(1).getBytes(StandardCharsets.US_ASCII)); // the old proof
                assertStartsWith(in.readLine(), Wire.VERSION + " " + Wire.ERROR + " wrong%20secret");
            }
            assertEquals(List.of(0, 1), server.missingRanks(), "the replay took no slot");
            var a = rank(server.address(), 0, LONG);
            var b = rank(server.address(), 1, LONG);
            assertEquals(expected(2), a.get(20, TimeUnit.SECONDS));
            assertEquals(expected(2), b.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void aVersionOneHelloCarryingTheSecretIsRefusedByName() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 1, LONG)) {
            String v1 = "JSPIN-RDV/1 HELLO " + JOB + " 0 " + SECRET + " x:1\n";
            assertStartsWith(rawExchange(server.address(), v1.getBytes(StandardCharsets.US_ASCII)),
                    Wire.VERSION + " " + Wire.ERROR + " unsupported%20protocol%20version%20'JSPIN-RDV/1'");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void allRanksGetEveryEndpointInRankOrder(int n) throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, n, LONG)) {
            List<CompletableFuture<List<String>>> ranks = new ArrayList<>();
            for (int r = n - 1; r >= 0; r--) { // arrival order need not be rank order
                ranks.add(rank(server.address(), r, LONG));
            }
            for (CompletableFuture<List<String>> f : ranks) {
                assertEquals(expected(n), f.get(20, TimeUnit.SECONDS));
            }
            assertEquals(expected(n), server.awaitEndpoints(LONG));
            assertEquals(List.of(), server.missingRanks());
        }
    }

    @Test
    void valuesWithSpacesPercentsAndUnicodeSurvive() throws Exception {
        String odd = "n\u0153ud 7%:[::1]:99";
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, "job with spaces", SECRET + " %x", 2, LONG)) {
            var a = rank(server.address(), "job with spaces", SECRET + " %x", 0, odd, LONG);
            var b = rank(server.address(), "job with spaces", SECRET + " %x", 1, "plain:1", LONG);
            assertEquals(List.of(odd, "plain:1"), a.get(20, TimeUnit.SECONDS));
            assertEquals(List.of(odd, "plain:1"), b.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void wrongSecretIsRefusedAndTheRightRanksStillComplete() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 3, LONG)) {
            // an impostor claims rank 1 first: it must neither get the list nor take the slot
            var impostor = rank(server.address(), JOB, "not-the-secret-at-all", 1, "evil:1", LONG);
            MpiException e = failure(impostor);
            assertContains(e.getMessage(), "wrong secret");
            assertContains(e.getMessage(), server.address());
            assertTrue(!e.getMessage().contains("not-the-secret-at-all") && !e.getMessage().contains(SECRET), e::getMessage);
            var ranks = List.of(rank(server.address(), 0, LONG), rank(server.address(), 1, LONG), rank(server.address(), 2, LONG));
            for (var f : ranks) {
                assertEquals(expected(3), f.get(20, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void wrongSecretForARankNobodyElseBringsTimesTheOthersOutCleanly() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, Duration.ofMillis(500))) {
            var good = rank(server.address(), 0, LONG);
            var bad = rank(server.address(), JOB, "0123456789abcdef-wrong", 1, endpoint(1), LONG);
            assertContains(failure(bad).getMessage(), "wrong secret");
            long t0 = System.nanoTime();
            MpiException e = failure(good);
            assertContains(e.getMessage(), "timed out after 500 ms waiting for ranks [1]");
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "the server's timeout, not the client's 10 s");
            MpiException awaited = assertThrows(MpiException.class, () -> server.awaitEndpoints(LONG));
            assertContains(awaited.getMessage(), "timed out");
        }
    }

    @Test
    void wrongJobIdIsRefusedNamingItAtTheTimeout() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 1, LONG)) {
            long t0 = System.nanoTime();
            MpiException e = failure(rank(server.address(), "other-job", SECRET, 0, endpoint(0), Duration.ofMillis(500)));
            // retried, since another job's server may hold the port only for a moment
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(500), "tried until the timeout");
            assertContains(e.getMessage(), "refused by the server until the timeout of 500 ms: job id 'other-job'"
                    + " is not this rendezvous's job '" + JOB + "'");
            assertEquals(List.of(endpoint(0)), rank(server.address(), 0, LONG).get(20, TimeUnit.SECONDS));
        }
    }

    /** A fixed port served job after job: a rank that first reaches the last job's server waits for its own. */
    @Test
    void aRankRefusedByTheLastJobsServerReachesItsOwn() throws Exception {
        RendezvousServer last = RendezvousServer.start("127.0.0.1", 0, JOB + "-last", SECRET, 2, LONG);
        String address = last.address();
        CompletableFuture<List<String>> next;
        try (last) {
            next = rank(address, JOB + "-next", SECRET, 0, endpoint(0), LONG);
            Thread.sleep(300); // refused by the last job's server by now, and trying again
            assertFalse(next.isDone(), "still trying");
        }
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        try (RendezvousServer own = RendezvousServer.start("127.0.0.1", port, JOB + "-next", SECRET, 1, LONG)) {
            assertEquals(List.of(endpoint(0)), next.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void duplicateRankIsRefusedAndTheFirstKeepsItsSlot() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG)) {
            var first = rank(server.address(), 0, LONG);
            awaitMissing(server, List.of(1));
            MpiException e = failure(rank(server.address(), JOB, SECRET, 0, "dup:0", LONG));
            assertContains(e.getMessage(), "rank 0 is already registered");
            var second = rank(server.address(), 1, LONG);
            assertEquals(expected(2), first.get(20, TimeUnit.SECONDS));
            assertEquals(expected(2), second.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void rankOutOfRangeIsRefused() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG)) {
            assertContains(failure(rank(server.address(), 5, LONG)).getMessage(), "rank 5 is out of range [0, 2)");
        }
    }

    @Test
    void aClientThatConnectsAndDiesDoesNotWedgeTheServer() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG)) {
            Wire.HostPort hp = Wire.HostPort.parse(server.address(), 1);
            // dies before any hello
            new Socket(hp.host(), hp.port()).close();
            // dies half-way through a hello
            try (Socket s = new Socket(hp.host(), hp.port())) {
                s.getOutputStream().write((Wire.VERSION + " HELLO jo").getBytes(StandardCharsets.US_ASCII));
            }
            // dies after its hello was accepted: rank 1's slot must come free again
            try (Socket s = new Socket(hp.host(), hp.port())) {
                var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                prove(s, in, JOB, 1, "dying:1", SECRET);
                assertEquals(Wire.VERSION + " " + Wire.ACCEPTED, in.readLine());
                assertEquals(List.of(0), server.missingRanks());
            }
            awaitMissing(server, List.of(0, 1));
            var a = rank(server.address(), 0, LONG);
            var b = rank(server.address(), 1, LONG);
            assertEquals(expected(2), a.get(20, TimeUnit.SECONDS));
            assertEquals(expected(2), b.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void aRankThatNeverArrivesTimesTheServerOut() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 3, Duration.ofMillis(500))) {
            var a = rank(server.address(), 0, LONG);
            var b = rank(server.address(), 2, LONG);
            for (var f : List.of(a, b)) {
                MpiException e = failure(f);
                assertContains(e.getMessage(), "refused by the server: timed out after 500 ms waiting for ranks [1]");
            }
            // a late rank is told why instead of waiting for nothing
            assertContains(failure(rank(server.address(), 1, LONG)).getMessage(), "arrived after the exchange failed");
        }
    }

    @Test
    void malformedAndOversizedHellosAreRefusedAndTheServerCarriesOn() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG)) {
            String a = server.address();
            String err = Wire.VERSION + " " + Wire.ERROR + " ";
            assertStartsWith(rawExchange(a, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                    err + "not%20a%20rendezvous%20hello");
            assertStartsWith(rawExchange(a, "JSPIN-RDV/9 HELLO a b c d\n".getBytes(StandardCharsets.US_ASCII)),
                    err + "unsupported%20protocol%20version%20'JSPIN-RDV/9'");
            assertStartsWith(rawExchange(a, (Wire.VERSION + " HELLO a b\n").getBytes(StandardCharsets.US_ASCII)),
                    err + "malformed%20hello:%20expected");
            assertStartsWith(rawExchange(a, hello(JOB, "one", NONCE, "x:1").getBytes(StandardCharsets.US_ASCII)),
                    err + "malformed%20hello:%20rank%20'one'%20is%20not%20a%20number");
            assertStartsWith(rawExchange(a, hello(JOB, "0", "abc", "x:1").getBytes(StandardCharsets.US_ASCII)),
                    err + "malformed%20hello:%20the%20nonce%20is%20not%2032%20bytes");
            assertStartsWith(rawExchange(a, hello(JOB, "0", NONCE, "x:1").replace("x:1", "x%ZZ").getBytes(StandardCharsets.US_ASCII)),
                    err + "malformed%20hello:%20bad%20%25-escape");
            assertStartsWith(rawExchange(a, new byte[] {'J', 0, '\n'}), err + "malformed%20hello:%20byte%200x00");
            // 5000 bytes and no newline: refused once the 4096-byte line buffer is full, not buffered further
            byte[] big = new byte[5000];
            Arrays.fill(big, (byte) 'a');
            assertStartsWith(rawExchange(a, big), err + "malformed%20hello:%20line%20longer%20than%204096%20bytes");
            // a claim of a huge value costs nothing either: the line limit applies before any decoding
            byte[] huge = new byte[4 << 20];
            Arrays.fill(huge, (byte) 'b');
            try {
                String reply = rawExchange(a, huge);
                assertStartsWith(reply, err + "malformed%20hello:%20line%20longer");
            } catch (IOException resetWhileStillSending) {
                // the server stopped reading and closed while we were still writing: refused just the same
            }
            assertEquals(List.of(0, 1), server.missingRanks());
            var r0 = rank(a, 0, LONG);
            var r1 = rank(a, 1, LONG);
            assertEquals(expected(2), r0.get(20, TimeUnit.SECONDS));
            assertEquals(expected(2), r1.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void closingTheServerTellsTheWaitingRanks() throws Exception {
        RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 2, LONG);
        var a = rank(server.address(), 0, LONG);
        awaitMissing(server, List.of(1));
        server.close();
        assertContains(failure(a).getMessage(), "closed before ranks [1] arrived");
    }

    @Test
    void badArgumentsAreRefusedNamingTheValue() {
        assertArg(() -> RendezvousServer.start(" ", 0, JOB, SECRET, 1), "bind host");
        assertArg(() -> RendezvousServer.start("127.0.0.1", 70000, JOB, SECRET, 1), "70000");
        assertArg(() -> RendezvousServer.start("127.0.0.1", 0, "", SECRET, 1), "job id");
        assertArg(() -> RendezvousServer.start("127.0.0.1", 0, JOB, "short", 1), "got 5");
        assertArg(() -> RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 0), "got 0");
        assertArg(() -> RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 1, Duration.ZERO), "PT0S");
        assertArg(() -> RendezvousServer.servedByRankZero("127.0.0.1:1", JOB, SECRET, 2, 2), "got 2");
        assertArg(() -> RendezvousServer.servedByRankZero("nohost", JOB, SECRET, 2, 0), "'nohost'");
    }

    @Test
    void aTakenPortIsAClearError() {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 0, JOB, SECRET, 1, LONG)) {
            int port = Wire.HostPort.parse(server.address(), 1).port();
            MpiException e = assertThrows(MpiException.class, () -> RendezvousServer.start("127.0.0.1", port, JOB, SECRET, 1, LONG));
            assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
            assertContains(e.getMessage(), "cannot bind the rendezvous server to " + server.address());
        }
    }

    static void assertArg(org.junit.jupiter.api.function.Executable call, String mention) {
        MpiException e = assertThrows(MpiException.class, call);
        assertEquals(ErrorClass.ERR_ARG, e.errorClass(), e::getMessage);
        assertContains(e.getMessage(), mention);
    }

    static void assertStartsWith(String line, String prefix) {
        assertTrue(line != null && line.startsWith(prefix), () -> "'" + line + "' does not start with '" + prefix + "'");
    }
}
