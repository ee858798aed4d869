package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.EndpointExchange;
import org.jspin.bootstrap.InJvmExchange;
import org.jspin.transport.netty.join.NettyLaunch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where a rank's fabric listens: any free port by default; with a port in the bind address
 * ({@code JSPIN_BIND=host:port}) rank r listens on that port plus r; and a port that is taken is a
 * clear {@link MpiException} at once (naming the rank, the address and the port, saying it is in
 * use), never a raw {@link java.net.BindException}, a Netty exception in the message, or a wait for
 * the connect timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyFabricListenTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final String HOST = "127.0.0.1";
    /** Long, so that a failure that waited for it instead of failing at once would show. */
    private static final Duration CONNECT = Duration.ofSeconds(20);

    private static NettyLaunch launch(EndpointExchange exchange, String bind, Duration timeout) {
        return new NettyLaunch(SECRET, exchange, bind, timeout);
    }

    private static ServerSocket listening(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(InetAddress.getByName(HOST), port), 1);
        return s;
    }

    /** @return a port p such that p and p + 1 were both free a moment ago */
    private static int twoFreePorts() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket a = listening(0)) {
                int p = a.getLocalPort();
                if (p < 65535) {
                    try (ServerSocket b = listening(p + 1)) {
                        return p;
                    } catch (IOException taken) {
                        // try another
                    }
                }
            }
        }
        throw new IllegalStateException("no two adjacent free ports on " + HOST);
    }

    /** The message a user reads: the address, the port, "in use", and nothing of Netty's or the JDK's exception names. */
    private static void assertClear(MpiException e, int rank, int port) {
        String m = e.getMessage();
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass(), m);
        assertTrue(m.startsWith("ERR_OTHER: rank " + rank + " cannot listen on " + HOST + ":" + port + ": "), m);
        assertTrue(m.contains("already in use"), m);
        assertFalse(m.contains("Exception") || m.contains("io.netty") || m.contains("(..)"), m);
        assertNotNull(e.getCause(), "the cause is kept for a stack trace");
    }

    @Test
    void aTakenPortIsAnMpiExceptionNamingTheAddressAtOnce() throws IOException {
        try (ServerSocket taken = listening(0)) {
            int port = taken.getLocalPort();
            long t0 = System.nanoTime();
            MpiException e = assertThrows(MpiException.class,
                    () -> new NettyFabric("busy", 1, 0, launch(new InJvmExchange(1), HOST + ":" + port, CONNECT)));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.println("port in use, after " + ms + " ms: " + e.getMessage());
            assertClear(e, 0, port);
            assertTrue(ms < 5_000, "failed after " + ms + " ms, not at once");
            assertTrue(taken.isBound() && !taken.isClosed(), "the other socket keeps its port");
        }
        // and the same rank with no port given listens anywhere free
        new NettyFabric("free", 1, 0, launch(new InJvmExchange(1), HOST, CONNECT)).close();
    }

    @Test
    void rankRListensOnTheGivenPortPlusR() throws IOException {
        int base = twoFreePorts();
        InJvmExchange inner = new InJvmExchange(2);
        List<List<String>> seen = new ArrayList<>();
        EndpointExchange recording = (rank, endpoint, timeout) -> {
            List<String> all = inner.exchange(rank, endpoint, timeout);
            synchronized (seen) {
                seen.add(all);
            }
            return all;
        };
        List<CompletableFuture<NettyFabric>> f = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int rank = r;
            f.add(CompletableFuture.supplyAsync(() -> new NettyFabric("ported", 2, rank,
                    launch(recording, HOST + ":" + base, CONNECT)), runnable -> Thread.ofPlatform().daemon().start(runnable)));
        }
        List<NettyFabric> fabrics = f.stream().map(CompletableFuture::join).toList();
        try {
            assertEquals(List.of(HOST + ":" + base, HOST + ":" + (base + 1)), seen.getFirst());
        } finally {
            fabrics.forEach(NettyFabric::close);
        }
    }

    /** Rank 1's port (base + 1) is taken: rank 1 fails at once naming it; rank 0 fails within its timeout, not later. */
    @Test
    void aJobWhoseRankOnePortIsTakenFailsOnEveryRank() throws IOException {
        int base = twoFreePorts();
        try (ServerSocket taken = listening(base + 1)) {
            InJvmExchange exchange = new InJvmExchange(2);
            Duration short0 = Duration.ofSeconds(2);
            long t0 = System.nanoTime();
            CompletableFuture<NettyFabric> zero = CompletableFuture.supplyAsync(() -> new NettyFabric("half-busy", 2, 0,
                    launch(exchange, HOST + ":" + base, short0)), r -> Thread.ofPlatform().daemon().start(r));
            MpiException one = assertThrows(MpiException.class,
                    () -> new NettyFabric("half-busy", 2, 1, launch(exchange, HOST + ":" + base, CONNECT)));
            assertClear(one, 1, base + 1);
            assertTrue(one.getMessage().contains("JSPIN_BIND=" + HOST + ":" + base + " gives rank r port " + base + " + r"),
                    one.getMessage());
            Throwable z = assertThrows(CompletionException.class, zero::join).getCause();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(z instanceof MpiException m && m.getMessage().contains("ranks [1] did not join"), String.valueOf(z));
            assertTrue(ms < short0.toMillis() + 3_000, "rank 0 gave up after " + ms + " ms");
        }
    }

    @Test
    void aPortBeyond65535ForARankOrAMalformedBindAddressIsAnArgumentError() {
        MpiException high = assertThrows(MpiException.class,
                () -> new NettyFabric("high", 2, 1, launch(new InJvmExchange(2), HOST + ":65535", CONNECT)));
        assertEquals(ErrorClass.ERR_ARG, high.errorClass());
        assertTrue(high.getMessage().contains("65536"), high.getMessage());
        for (String bad : List.of("127.0.0.1:http", "127.0.0.1:70000", "127.0.0.1:-1", "[::1", "[::1]x", ":7000", "[]:7000")) {
            MpiException e = assertThrows(MpiException.class, () -> launch(new InJvmExchange(1), bad, CONNECT), bad);
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }
}
