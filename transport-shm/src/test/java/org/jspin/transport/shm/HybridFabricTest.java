package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspin.bootstrap.InJvmExchange;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.transport.netty.join.NettyLaunch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job spanning "hosts" as threads of this JVM: each rank is given a host key, ranks of one key
 * share rings (in a temporary directory) and reach the others over loopback TCP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HybridFabricTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    private final List<Fabric> open = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void closeAll() {
        open.forEach(Fabric::close);
        threads.shutdownNow();
    }

    /** Joins one endpoint per key, each on its own thread; rank r is on host {@code hosts[r]}. */
    private Fabric[] job(String... hosts) {
        int size = hosts.length;
        NettyLaunch launch = new NettyLaunch(SECRET, new InJvmExchange(size), NettyLaunch.LOOPBACK, Duration.ofSeconds(20));
        List<CompletableFuture<Fabric>> joining = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            int rank = r;
            joining.add(CompletableFuture.supplyAsync(() -> ShmFabricProvider.acrossHosts("job-hybrid", size, rank, launch,
                    dir, hosts[rank]), threads));
        }
        Fabric[] f = new Fabric[size];
        for (int r = 0; r < size; r++) {
            f[r] = joining.get(r).join();
            open.add(f[r]);
        }
        return f;
    }

    /** Copies each delivered payload, then releases it, as the engine does. */
    private static final class Recorder implements PacketHandler {
        final Fabric fabric;
        final List<Packet> packets = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        int released;

        Recorder(Fabric fabric) {
            this.fabric = fabric;
        }

        @Override
        public void onPacket(Packet p) {
            Packet copy = new Packet();
            copy.headerFrom(p);
            packets.add(copy);
            byte[] b = new byte[p.payloadLength];
            if (p.payloadLength > 0) {
                MemorySegment.copy(p.payload, p.payloadOffset, MemorySegment.ofArray(b), 0, p.payloadLength);
            }
            payloads.add(b);
            fabric.release(p);
        }

        @Override
        public void onReleased(Packet p) {
            released++;
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            throw new AssertionError("rank " + rank + " failed: " + reason);
        }
    }

    private static Packet packet(int target, long bits, byte[] payload) {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.EAGER;
        p.target = target;
        p.matchBits = bits;
        if (payload.length > 0) {
            p.payload = MemorySegment.ofArray(payload);
            p.payloadLength = payload.length;
        }
        return p;
    }

    @Test
    void ranksSharingAKeyShareRingsAndTheOthersAreReachedOverTcp() {
        Fabric[] f = job("a", "a", "b", "b", "c");
        for (int r = 0; r < 4; r++) {
            assertInstanceOf(HybridFabric.class, f[r], "rank " + r);
            assertEquals(2, f[r].ranksOnHost(), "rank " + r);
            assertTrue(f[r].progressInCalls());
        }
        assertEquals(1, f[4].ranksOnHost(), "rank 4 is alone on its host: TCP only");
        assertFalse(f[4] instanceof HybridFabric || f[4] instanceof ShmFabric, f[4].getClass().getName());
        for (Fabric x : f) {
            x.poll(new Recorder(x), 8); // takes the hellos its host's peers wrote when they joined
        }
        try (Stream<Path> rings = Files.list(dir)) {
            assertEquals(0, rings.count(), "every ring is unlinked once its host's ranks have proven themselves");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void ranksAllOnOneHostJoinOverRingsAlone() {
        Fabric[] f = job("a", "a", "a");
        for (Fabric x : f) {
            assertInstanceOf(ShmFabric.class, x);
            assertEquals(3, x.ranksOnHost());
        }
    }

    /**
     * Every rank sends every rank (itself included) packets of seeded random sizes, some beyond a
     * ring record's usual size; each arrives whole and in its sender's order, and every sent packet
     * comes back to its sender.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12})
    void packetsBetweenAllPairsArriveWholeAndInOrder(long seed) throws Exception {
        Fabric[] f = job("a", "a", "b", "b");
        int size = f.length;
        int perPair = 40;
        List<Future<?>> ranks = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            int rank = r;
            ranks.add(threads.submit(() -> {
                Random random = new Random(seed * 31 + rank);
                Recorder rec = new Recorder(f[rank]);
                List<Packet> backlog = new ArrayList<>();
                for (int i = 0; i < perPair; i++) {
                    for (int t = 0; t < size; t++) {
                        byte[] b = new byte[random.nextInt(4) == 0 ? random.nextInt(200_000) : random.nextInt(300)];
                        new Random(seed ^ (rank * 1_000_003L + t * 1_009L + i)).nextBytes(b);
                        backlog.add(packet(t, ((long) rank << 32) | i, b));
                    }
                }
                int sent = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (sent < backlog.size() || rec.packets.size() < perPair * size || rec.released < backlog.size()) {
                    assertTrue(System.nanoTime() < deadline, "seed " + seed + ": rank " + rank + " sent " + sent
                            + ", got " + rec.packets.size() + ", released " + rec.released);
                    while (sent < backlog.size() && f[rank].send(backlog.get(sent))) {
                        sent++;
                    }
                    f[rank].flush();
                    f[rank].poll(rec, 64);
                }
                int[] next = new int[size];
                for (int k = 0; k < rec.packets.size(); k++) {
                    Packet p = rec.packets.get(k);
                    int from = (int) (p.matchBits >>> 32);
                    int i = (int) p.matchBits;
                    assertEquals(next[from]++, i, "seed " + seed + ": rank " + rank + " got rank " + from + "'s packets out of order");
                    assertEquals(from, p.source);
                    byte[] want = expectedPayload(seed, from, rank, i);
                    assertArrayEquals(want, rec.payloads.get(k), "seed " + seed + ": packet " + i + " from " + from + " to " + rank);
                }
                return null;
            }));
        }
        for (Future<?> r : ranks) {
            r.get(50, TimeUnit.SECONDS);
        }
    }

    /** The payload rank {@code from}'s {@code i}-th packet to {@code to} carries, its size drawn as the sender drew it. */
    private static byte[] expectedPayload(long seed, int from, int to, int i) {
        Random random = new Random(seed * 31 + from);
        int size = 4;
        int length = -1;
        for (int k = 0; k <= i; k++) {
            for (int t = 0; t < size; t++) {
                int n = random.nextInt(4) == 0 ? random.nextInt(200_000) : random.nextInt(300);
                if (k == i && t == to) {
                    length = n;
                }
            }
        }
        byte[] b = new byte[length];
        new Random(seed ^ (from * 1_000_003L + to * 1_009L + i)).nextBytes(b);
        return b;
    }

    /**
     * A caller asleep in the hybrid's wait wakes for a packet through the ring and for one over TCP,
     * within 100 ms each time: without the ring's watcher a ring packet would wait for the next look
     * at the peers (every 500 ms), so three tries in a row would not all be that quick.
     */
    @Test
    void aSleepingCallerWakesForAPacketFromEitherSide() throws Exception {
        Fabric[] f = job("a", "a", "b");
        for (int from : new int[] {1, 1, 1, 2}) {
            Recorder rec = new Recorder(f[0]);
            Future<Long> arrived = threads.submit(() -> {
                while (rec.packets.isEmpty()) {
                    f[0].await(TimeUnit.SECONDS.toNanos(5));
                    f[0].poll(rec, 8);
                }
                return System.nanoTime();
            });
            Thread.sleep(150); // rank 0 is asleep by now
            long sent = System.nanoTime();
            assertTrue(f[from].send(packet(0, from, new byte[16])));
            f[from].flush();
            f[from].poll(new Recorder(f[from]), 8);
            long nanos = arrived.get(10, TimeUnit.SECONDS) - sent;
            assertTrue(nanos < TimeUnit.MILLISECONDS.toNanos(100), "rank 0 took " + nanos / 1_000_000 + " ms to wake for"
                    + " rank " + from + "'s packet");
            assertEquals(from, rec.packets.get(0).source);
        }
    }
}
