package org.jspin.bootstrap.rendezvous;

import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.JOB;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.LONG;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.SECRET;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.assertArg;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.assertContains;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.endpoint;
import static org.jspin.bootstrap.rendezvous.RendezvousServerTest.expected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.EndpointExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Slurm and Open MPI style: rank 0 serves the rendezvous and takes part; the others may start first. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RendezvousRankZeroTest {
    private static CompletableFuture<List<String>> run(EndpointExchange x, int rank, Duration timeout) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                f.complete(x.exchange(rank, endpoint(rank), timeout));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    @Test
    void rankZeroServesAndTheOthersMayComeFirst() throws Exception {
        // job ids of their own, as real jobs have: a client another test left retrying on a
        // reused port must not take a slot here (it would pass the proof, sharing the secret)
        String first = JOB + "-first";
        String next = JOB + "-next";
        int n = 4;
        String address = "127.0.0.1:" + RendezvousClientTest.freePort();
        List<CompletableFuture<List<String>>> ranks = new ArrayList<>();
        for (int r = 1; r < n; r++) {
            ranks.add(run(RendezvousServer.servedByRankZero(address, first, SECRET, n, r), r, LONG));
        }
        Thread.sleep(300); // the others are retrying refused connections by now
        ranks.add(run(RendezvousServer.servedByRankZero(address, first, SECRET, n, 0), 0, LONG));
        for (var f : ranks) {
            assertEquals(expected(n), f.get(20, TimeUnit.SECONDS));
        }
        // the server is gone afterwards, and the port can be served again (the next job)
        var again = new ArrayList<CompletableFuture<List<String>>>();
        for (int r = 0; r < 2; r++) {
            again.add(run(RendezvousServer.servedByRankZero(address, next, SECRET, 2, r), r, LONG));
        }
        for (var f : again) {
            assertEquals(expected(2), f.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void oneRankJobNeedsNobodyElse() {
        String address = "127.0.0.1:" + RendezvousClientTest.freePort();
        assertEquals(List.of(endpoint(0)), RendezvousServer.servedByRankZero(address, JOB, SECRET, 1, 0).exchange(0, endpoint(0), LONG));
    }

    @Test
    void rankZeroTimesOutWhenARankNeverComes() {
        String address = "127.0.0.1:" + RendezvousClientTest.freePort();
        EndpointExchange zero = RendezvousServer.servedByRankZero(address, JOB, SECRET, 2, 0);
        long t0 = System.nanoTime();
        MpiException e = assertThrows(MpiException.class, () -> zero.exchange(0, endpoint(0), Duration.ofMillis(1000)));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        // rank 1 is named missing; on a loaded machine rank 0's own hello may not have landed in time either
        assertTrue(e.getMessage().matches("(?s).*ranks \\[(0, )?1].*"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void aRankWhoseRankZeroNeverComesTimesOut() throws Exception {
        String address = "127.0.0.1:" + RendezvousClientTest.freePort();
        var f = run(RendezvousServer.servedByRankZero(address, JOB, SECRET, 2, 1), 1, Duration.ofMillis(500));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
        assertContains(e.getCause().getMessage(), "could not connect within 500 ms: connection refused");
    }

    @Test
    void rankZeroCalledAsAnotherRankIsAnArgumentError() {
        EndpointExchange zero = RendezvousServer.servedByRankZero("127.0.0.1:1", JOB, SECRET, 2, 0);
        assertArg(() -> zero.exchange(1, "a:1", LONG), "called as rank 1");
    }
}
