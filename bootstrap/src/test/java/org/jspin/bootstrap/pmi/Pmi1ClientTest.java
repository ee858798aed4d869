package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Pmi1Client} against {@link FakePmiServer}, over a loopback port and over a descriptor pair. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class Pmi1ClientTest {
    private static final List<String> HANDSHAKE =
            List.of("cmd=init pmi_version=1 pmi_subversion=1", "cmd=get_maxes", "cmd=get_my_kvsname");

    private static Map<String, String> portEnv(FakePmiServer server, String pmiId) {
        return Map.of("PMI_PORT", "127.0.0.1:" + server.port(), "PMI_ID", pmiId);
    }

    /** Connects rank 0 of a one-rank job over a loopback port. */
    private static Pmi1Client portClient(FakePmiServer server) {
        return Pmi1Client.connect(portEnv(server, "0"), Duration.ofSeconds(5));
    }

    private static MpiException otherError(Runnable action) {
        MpiException e = assertThrows(MpiException.class, action::run);
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass(), e.getMessage());
        return e;
    }

    private static void assertContains(String needle, String haystack) {
        assertTrue(haystack.contains(needle), () -> "expected '" + needle + "' in: " + haystack);
    }

    @Test
    void pmiFdPathInitialisesWithInitMaxesAndKvsName() throws IOException {
        int[] pair = NativeSocketPair.open();
        FakePmiServer server = FakePmiServer.forDescriptors(3);
        server.serveFd(pair[1]);
        try (Pmi1Client client = Pmi1Client.connect(
                Map.of("PMI_FD", Integer.toString(pair[0]), "PMI_RANK", "1", "PMI_SIZE", "3"), Duration.ofSeconds(5))) {
            assertEquals(1, client.rank());
            assertEquals(3, client.size());
            assertEquals(FakePmiServer.KVS, client.kvsName());
            assertEquals(256, client.maxKvsNameLength());
            assertEquals(64, client.maxKeyLength());
            assertEquals(1024, client.maxValueLength());
            assertEquals(HANDSHAKE, server.received);
        }
    }

    @Test
    void pmiPortPathIntroducesItselfWithInitackAndLearnsRankAndSize() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(4, Map.of("17", 2));
                Pmi1Client client = Pmi1Client.connect(portEnv(server, "17"), Duration.ofSeconds(5))) {
            assertEquals(2, client.rank());
            assertEquals(4, client.size());
            assertEquals(FakePmiServer.KVS, client.kvsName());
            assertEquals("cmd=initack pmiid=17", server.received.get(0));
            assertEquals(HANDSHAKE, server.received.subList(1, server.received.size()));
        }
    }

    @Test
    void putThenGetRoundTripsAHostPortValue() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            client.put("jspin-ep-0", "127.0.0.1:4567");
            assertContains("cmd=put kvsname=" + FakePmiServer.KVS + " key=jspin-ep-0 value=127.0.0.1:4567",
                    server.received.toString());
            assertEquals("127.0.0.1:4567", server.kvs.get("jspin-ep-0"));
            assertEquals("127.0.0.1:4567", client.get("jspin-ep-0"));
            assertEquals("cmd=get kvsname=" + FakePmiServer.KVS + " key=jspin-ep-0", server.received.getLast());
        }
    }

    @Test
    void aValueOfOneByteLessThanVallenMaxIsSent() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            String longest = "v".repeat(1023);
            client.put("k", longest);
            assertEquals(longest, client.get("k"));
        }
    }

    @Test
    void getOfAnUnknownKeyCarriesTheServersMessage() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            MpiException e = otherError(() -> client.get("nosuch"));
            assertContains("rc=-1", e.getMessage());
            assertContains("msg=key_nosuch_not_found", e.getMessage());
            assertContains("cmd=get kvsname=" + FakePmiServer.KVS + " key=nosuch", e.getMessage());
            // a refusal is a proper answer: the client stays usable
            client.put("k", "v");
            assertEquals("v", client.get("k"));
        }
    }

    @Test
    void initRefusedByTheServerFailsConnectWithItsMessage() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0))) {
            server.answer("init", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-2 msg=version_mismatch");
            MpiException e = otherError(() -> portClient(server));
            assertContains("rc=-2, msg=version_mismatch", e.getMessage());
            assertContains("cmd=init pmi_version=1 pmi_subversion=1", e.getMessage());
        }
    }

    @Test
    void putRefusedByTheServerIsAnErrorWithItsMessage() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            server.answer("put", "cmd=put_result rc=-1 msg=kvs_full");
            MpiException e = otherError(() -> client.put("k", "v"));
            assertContains("rc=-1, msg=kvs_full", e.getMessage());
        }
    }

    static Stream<String> malformedMaxes() {
        return Stream.of("garbage",
                "",
                "cmd=maxes kvsname_max=256 keylen_max=sixty vallen_max=1024",
                "cmd=maxes kvsname_max=256 vallen_max=1024",
                "cmd=maxes kvsname_max=256 keylen_max=0 vallen_max=1024",
                "kvsname_max=256 cmd=maxes keylen_max=64 vallen_max=1024",
                "cmd=maxes kvsname_max=256 keylen_max=64 keylen_max=64 vallen_max=1024",
                "cmd=my_kvsname kvsname=kvs_fake_0",
                "cmd=maxes =256 keylen_max=64 vallen_max=1024");
    }

    @ParameterizedTest
    @MethodSource("malformedMaxes")
    void aMalformedReplyFailsNamingTheLine(String reply) throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0))) {
            server.answer("get_maxes", reply);
            MpiException e = otherError(() -> portClient(server));
            assertContains("malformed PMI-1 reply to 'cmd=get_maxes'", e.getMessage());
            assertContains("'" + reply + "'", e.getMessage());
        }
    }

    static Stream<String> malformedPutResults() {
        return Stream.of("cmd=put_result", "cmd=put_result rc=zero", "cmd=get_result rc=0 value=x", "cmd=barrier_out");
    }

    @ParameterizedTest
    @MethodSource("malformedPutResults")
    void aMalformedPutResultLeavesTheClientUnusable(String reply) throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            server.answer("put", reply);
            MpiException e = otherError(() -> client.put("k", "v"));
            assertContains("malformed PMI-1 reply to 'cmd=put", e.getMessage());
            assertContains(reply, e.getMessage());
            assertContains("unusable after an earlier failure", otherError(() -> client.get("k")).getMessage());
        }
    }

    @Test
    void aServerThatHangsUpMidRequestIsReported() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            server.answer("put", FakePmiServer.HANG_UP);
            MpiException e = otherError(() -> client.put("k", "v"));
            assertContains("closed PMI_PORT=127.0.0.1:" + server.port() + " before answering 'cmd=put", e.getMessage());
        }
    }

    @Test
    void barrierWaitsForEveryRank() throws Exception {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of("20", 0, "21", 1))) {
            Executor threads = task -> Thread.ofPlatform().daemon().start(task);
            CompletableFuture<Pmi1Client> second = CompletableFuture.supplyAsync(
                    () -> Pmi1Client.connect(portEnv(server, "21"), Duration.ofSeconds(5)), threads);
            try (Pmi1Client first = Pmi1Client.connect(portEnv(server, "20"), Duration.ofSeconds(5));
                    Pmi1Client other = second.get(5, TimeUnit.SECONDS)) {
                assertEquals(0, first.rank());
                assertEquals(1, other.rank());
                first.put("k0", "zero");
                CompletableFuture<Void> firstBarrier = CompletableFuture.runAsync(first::barrier, threads);
                Thread.sleep(200);
                assertFalse(firstBarrier.isDone(), "the barrier returned before rank 1 entered it");
                other.barrier();
                firstBarrier.get(5, TimeUnit.SECONDS);
                assertEquals("zero", other.get("k0"));
            }
        }
    }

    @Test
    void barrierTimesOutWhenARankNeverArrivesOverPmiPort() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            assertTimesOutThenUnusable(client);
        }
    }

    @Test
    void barrierTimesOutWhenARankNeverArrivesOverPmiFd() throws IOException {
        int[] pair = NativeSocketPair.open();
        FakePmiServer server = FakePmiServer.forDescriptors(2);
        server.serveFd(pair[1]);
        try (Pmi1Client client = Pmi1Client.connect(
                Map.of("PMI_FD", Integer.toString(pair[0]), "PMI_RANK", "0", "PMI_SIZE", "2"), Duration.ofSeconds(5))) {
            assertTimesOutThenUnusable(client);
        }
    }

    private static void assertTimesOutThenUnusable(Pmi1Client client) {
        long start = System.nanoTime();
        MpiException e = otherError(() -> client.barrier(Duration.ofMillis(300)));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis >= 250 && millis < 5000, "barrier gave up after " + millis + " ms");
        assertContains("no reply to 'cmd=barrier_in'", e.getMessage());
        assertContains("within PT0.3S", e.getMessage());
        assertContains("unusable after an earlier failure", otherError(() -> client.put("k", "v")).getMessage());
    }

    @Test
    void connectGivesUpWhenTheServerNeverAnswersInit() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0))) {
            server.answer("init");
            long start = System.nanoTime();
            MpiException e = otherError(() -> Pmi1Client.connect(portEnv(server, "0"), Duration.ofMillis(300)));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
            assertContains("no reply to 'cmd=init pmi_version=1 pmi_subversion=1'", e.getMessage());
        }
    }

    @Test
    void finalizeWaitsForTheAckAndEndsTheConversation() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            client.finalizeJob();
            assertEquals("cmd=finalize", server.received.getLast());
            assertContains("already finalized", otherError(() -> client.put("k", "v")).getMessage());
        }
    }

    @Test
    void finalizeWithoutAnAckTimesOut() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0));
                Pmi1Client client = Pmi1Client.connect(portEnv(server, "0"), Duration.ofMillis(500))) {
            server.answer("finalize");
            assertContains("no reply to 'cmd=finalize'", otherError(client::finalizeJob).getMessage());
        }
    }

    @Test
    void abortSendsTheExitCode() throws Exception {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            client.abort(3, "test abort, ignore");
            assertTrue(server.awaitReceived("cmd=abort exitcode=3", 5000), server.received::toString);
            assertContains("already aborted", otherError(() -> client.barrier()).getMessage());
        }
    }

    @Test
    void initackAssigningARankOutsideTheJobIsAnError() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of())) {
            server.answer("initack", "cmd=initack", "cmd=set size=2", "cmd=set rank=5", "cmd=set debug=0");
            assertContains("assigned rank 5 in a job of size 2", otherError(() -> portClient(server)).getMessage());
        }
    }

    @Test
    void initackWithAnUnknownSetIsMalformed() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of())) {
            server.answer("initack", "cmd=initack", "cmd=set colour=blue");
            MpiException e = otherError(() -> portClient(server));
            assertContains("malformed PMI-1 reply to 'cmd=initack pmiid=0'", e.getMessage());
            assertContains("colour=blue", e.getMessage());
        }
    }

    @Test
    void initackAnsweredWithSomethingElseIsMalformed() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of())) {
            server.answer("initack", "cmd=response_to_init rc=0");
            assertContains("expected cmd=initack", otherError(() -> portClient(server)).getMessage());
        }
    }

    static Stream<Arguments> badEnvironments() {
        return Stream.of(
                Arguments.of(Map.of(), "neither PMI_FD nor PMI_PORT is set"),
                Arguments.of(Map.of("PMI_FD", "abc", "PMI_RANK", "0", "PMI_SIZE", "1"), "PMI_FD='abc' is not"),
                Arguments.of(Map.of("PMI_FD", "-1", "PMI_RANK", "0", "PMI_SIZE", "1"), "PMI_FD='-1' is not"),
                Arguments.of(Map.of("PMI_FD", "5", "PMI_SIZE", "2"), "PMI_FD is set but PMI_RANK is missing"),
                Arguments.of(Map.of("PMI_FD", "5", "PMI_RANK", "0"), "PMI_FD is set but PMI_SIZE is missing"),
                Arguments.of(Map.of("PMI_FD", "5", "PMI_RANK", "x", "PMI_SIZE", "2"), "PMI_RANK='x' is not"),
                Arguments.of(Map.of("PMI_FD", "5", "PMI_RANK", "0", "PMI_SIZE", "0"), "PMI_SIZE='0' is not"),
                Arguments.of(Map.of("PMI_FD", "5", "PMI_RANK", "2", "PMI_SIZE", "2"), "PMI_RANK=2 is not below PMI_SIZE=2"),
                Arguments.of(Map.of("PMI_PORT", "localhost", "PMI_ID", "0"), "PMI_PORT='localhost' is not host:port"),
                Arguments.of(Map.of("PMI_PORT", ":5000", "PMI_ID", "0"), "PMI_PORT=':5000' is not host:port"),
                Arguments.of(Map.of("PMI_PORT", "localhost:0", "PMI_ID", "0"), "PMI_PORT='localhost:0' is not"),
                Arguments.of(Map.of("PMI_PORT", "localhost:99999", "PMI_ID", "0"), "PMI_PORT='localhost:99999' is not"),
                Arguments.of(Map.of("PMI_PORT", "localhost:x", "PMI_ID", "0"), "PMI_PORT='localhost:x' is not"),
                Arguments.of(Map.of("PMI_PORT", "127.0.0.1:5000"), "PMI_PORT is set but PMI_ID is missing"),
                Arguments.of(Map.of("PMI_PORT", "127.0.0.1:5000", "PMI_ID", "one"), "PMI_ID='one' is not"),
                Arguments.of(Map.of("PMI_PORT", "no-such-host.invalid:5000", "PMI_ID", "0"), "cannot resolve host"));
    }

    @ParameterizedTest
    @MethodSource("badEnvironments")
    void aMissingOrMalformedVariableIsNamed(Map<String, String> env, String expected) {
        assertContains(expected, otherError(() -> Pmi1Client.connect(env)).getMessage());
    }

    @Test
    void anUnreachablePmiPortIsNamed() throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        Map<String, String> env = Map.of("PMI_PORT", "127.0.0.1:" + port, "PMI_ID", "0");
        assertContains("cannot connect to the process manager at PMI_PORT=127.0.0.1:" + port,
                otherError(() -> Pmi1Client.connect(env, Duration.ofSeconds(2))).getMessage());
    }

    @Test
    void aPmiFdThatIsNotOpenIsNamed() {
        Map<String, String> env = new HashMap<>(Map.of("PMI_FD", "1000000", "PMI_RANK", "0", "PMI_SIZE", "1"));
        MpiException e = otherError(() -> Pmi1Client.connect(env, Duration.ofSeconds(2)));
        assertContains("PMI_FD=1000000", e.getMessage());
        assertContains("Bad file descriptor (errno 9)", e.getMessage());
    }

    static Stream<Arguments> unsendable() {
        return Stream.of(
                Arguments.of("k", "a b", "value for key 'k' 'a b' contains ' '"),
                Arguments.of("k", "a\nb", "value for key 'k' 'a\\nb' contains '\\n'"),
                Arguments.of("k", "a=b", "value for key 'k' 'a=b' contains '='"),
                Arguments.of("k", "a\tb", "'a\\tb' contains '\\t'"),
                Arguments.of("k", "v".repeat(1024), "is 1024 bytes; the process manager's vallen_max=1024"),
                Arguments.of("k", null, "value for key 'k' must not be null"),
                Arguments.of("", "v", "PMI-1 key must not be empty"),
                Arguments.of("k k", "v", "PMI-1 key 'k k' contains ' '"),
                Arguments.of("k=v", "v", "PMI-1 key 'k=v' contains '='"),
                Arguments.of("k".repeat(64), "v", "is 64 bytes; the process manager's keylen_max=64"));
    }

    @ParameterizedTest
    @MethodSource("unsendable")
    void putRejectsWhatAPmiLineCannotCarryWithoutSendingIt(String key, String value, String expected)
            throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            MpiException e = assertThrows(MpiException.class, () -> client.put(key, value));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass(), e.getMessage());
            assertContains(expected, e.getMessage());
            // nothing went on the wire, so the conversation is still in step
            client.put("ok", "fine");
            assertEquals(List.of("cmd=put kvsname=" + FakePmiServer.KVS + " key=ok value=fine"),
                    server.received.stream().filter(l -> l.startsWith("cmd=put")).toList());
            assertEquals("fine", client.get("ok"));
        }
    }

    @Test
    void aNonPositiveTimeoutIsAnArgumentError() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0)); Pmi1Client client = portClient(server)) {
            MpiException e = assertThrows(MpiException.class, () -> client.barrier(Duration.ZERO));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        }
    }
}
