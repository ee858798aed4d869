package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Pmi1Exchange} with several client ranks against one {@link FakePmiServer}. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class Pmi1ExchangeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static String endpoint(int rank) {
        return "127.0.0.1:" + (4500 + rank);
    }

    /** Runs the exchange on {@code clients} ranks at once, each connected by {@code connect}. */
    private static List<CompletableFuture<List<String>>> exchangeAll(int clients, IntFunction<Pmi1Client> connect,
            Duration timeout) {
        List<CompletableFuture<List<String>>> results = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int id = i;
            results.add(CompletableFuture.supplyAsync(() -> {
                try (Pmi1Client client = connect.apply(id)) {
                    return new Pmi1Exchange(client).exchange(client.rank(), endpoint(client.rank()), timeout);
                }
            }, task -> Thread.ofPlatform().daemon().start(task))); // one thread per rank: they meet in a barrier
        }
        return results;
    }

    @Test
    void threeRanksOverPmiPortSeeEveryEndpointInRankOrder() throws Exception {
        // pmiids are not ranks: the server decides
        try (FakePmiServer server = FakePmiServer.listening(3, Map.of("10", 2, "11", 0, "12", 1))) {
            List<CompletableFuture<List<String>>> results = exchangeAll(3, id -> Pmi1Client.connect(
                    Map.of("PMI_PORT", "127.0.0.1:" + server.port(), "PMI_ID", Integer.toString(10 + id)), TIMEOUT),
                    TIMEOUT);
            List<String> expected = List.of(endpoint(0), endpoint(1), endpoint(2));
            for (CompletableFuture<List<String>> r : results) {
                assertEquals(expected, r.get(10, TimeUnit.SECONDS));
            }
            assertEquals(Map.of("jspin-ep-0", endpoint(0), "jspin-ep-1", endpoint(1), "jspin-ep-2", endpoint(2)),
                    server.kvs);
        }
    }

    @Test
    void twoRanksOverPmiFdSeeEveryEndpointInRankOrder() throws Exception {
        FakePmiServer server = FakePmiServer.forDescriptors(2);
        int[][] pairs = {NativeSocketPair.open(), NativeSocketPair.open()};
        for (int[] pair : pairs) {
            server.serveFd(pair[1]);
        }
        List<CompletableFuture<List<String>>> results = exchangeAll(2, rank -> Pmi1Client.connect(Map.of(
                "PMI_FD", Integer.toString(pairs[rank][0]), "PMI_RANK", Integer.toString(rank), "PMI_SIZE", "2"),
                TIMEOUT), TIMEOUT);
        for (CompletableFuture<List<String>> r : results) {
            assertEquals(List.of(endpoint(0), endpoint(1)), r.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aRankThatNeverArrivesMakesEveryoneElseFailWithinTheTimeout() throws Exception {
        try (FakePmiServer server = FakePmiServer.listening(3, Map.of("0", 0, "1", 1, "2", 2))) {
            long start = System.nanoTime();
            List<CompletableFuture<List<String>>> results = exchangeAll(2, id -> Pmi1Client.connect(
                    Map.of("PMI_PORT", "127.0.0.1:" + server.port(), "PMI_ID", Integer.toString(id)), TIMEOUT),
                    Duration.ofMillis(400));
            for (CompletableFuture<List<String>> r : results) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> r.get(10, TimeUnit.SECONDS));
                MpiException cause = (MpiException) e.getCause();
                assertEquals(ErrorClass.ERR_OTHER, cause.errorClass());
                assertTrue(cause.getMessage().contains("no reply to 'cmd=barrier_in'")
                        && cause.getMessage().contains("within PT0.4S"), cause.getMessage());
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 5000, "took " + millis + " ms");
        }
    }

    @Test
    void aMissingKeyAfterTheBarrierIsAnError() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of("0", 0));
                Pmi1Client client = Pmi1Client.connect(Map.of("PMI_PORT", "127.0.0.1:" + server.port(), "PMI_ID", "0"),
                        TIMEOUT)) {
            server.answer("barrier_in", "cmd=barrier_out");
            MpiException e = assertThrows(MpiException.class,
                    () -> new Pmi1Exchange(client).exchange(0, endpoint(0), TIMEOUT));
            assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
            assertTrue(e.getMessage().contains("msg=key_jspin-ep-1_not_found"), e.getMessage());
        }
    }

    @Test
    void theWrongRankOrAnUnsendableEndpointIsAnArgumentErrorAndPutsNothing() throws IOException {
        try (FakePmiServer server = FakePmiServer.listening(2, Map.of("0", 0));
                Pmi1Client client = Pmi1Client.connect(Map.of("PMI_PORT", "127.0.0.1:" + server.port(), "PMI_ID", "0"),
                        TIMEOUT)) {
            Pmi1Exchange exchange = new Pmi1Exchange(client);
            MpiException wrongRank = assertThrows(MpiException.class, () -> exchange.exchange(1, endpoint(1), TIMEOUT));
            assertEquals(ErrorClass.ERR_ARG, wrongRank.errorClass());
            assertTrue(wrongRank.getMessage().contains("rank 1") && wrongRank.getMessage().contains("says rank 0"),
                    wrongRank.getMessage());
            MpiException spaced = assertThrows(MpiException.class, () -> exchange.exchange(0, "host 1:2", TIMEOUT));
            assertEquals(ErrorClass.ERR_ARG, spaced.errorClass());
            assertTrue(spaced.getMessage().contains("'host 1:2'"), spaced.getMessage());
            assertEquals(ErrorClass.ERR_ARG,
                    assertThrows(MpiException.class, () -> exchange.exchange(0, endpoint(0), Duration.ZERO)).errorClass());
            assertEquals(Map.of(), server.kvs);
        }
    }
}
