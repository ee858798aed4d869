package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.bootstrap.InJvmExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shm fabric's endpoints as threads of this JVM, through real ring files in a temporary directory. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmFabricTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final int CAPACITY = 1 << 16;

    @TempDir
    Path dir;

    private final List<ShmFabric> open = new ArrayList<>();
    /** One thread per rank joining or sleeping (the common pool may have only one). */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void closeAll() {
        open.forEach(ShmFabric::close);
        threads.shutdownNow();
    }

    /** Joins {@code size} endpoints, each on its own thread (the exchange waits for all). */
    private ShmFabric[] job(int size, IntFunction<String> secretOf) {
        InJvmExchange exchange = new InJvmExchange(size);
        List<CompletableFuture<ShmFabric>> joining = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            int rank = r;
            joining.add(CompletableFuture.supplyAsync(() -> ShmFabric.join("job-test", size, rank, secretOf.apply(rank),
                    exchange, Duration.ofSeconds(20), dir, CAPACITY), threads));
        }
        ShmFabric[] f = new ShmFabric[size];
        for (int r = 0; r < size; r++) {
            f[r] = joining.get(r).join();
            open.add(f[r]);
        }
        return f;
    }

    /** Records what an endpoint delivers, copying each payload (as the engine does) before releasing it. */
    private static final class Recorder implements PacketHandler {
        final ShmFabric fabric;
        final List<Packet> packets = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<Packet> released = new ArrayList<>();
        final List<String> failed = new ArrayList<>();

        Recorder(ShmFabric fabric) {
            this.fabric = fabric;
        }

        @Override
        public void onPacket(Packet p) {
            Packet copy = new Packet();
            copy.headerFrom(p);
            copy.payloadLength = p.payloadLength;
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
            released.add(p);
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            failed.add(rank + ": " + reason);
        }

        int pollUntil(java.util.function.BooleanSupplier done) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int n = 0;
            while (!done.getAsBoolean()) {
                assertTrue(System.nanoTime() < deadline, "timed out; delivered " + packets + ", failures " + failed);
                n += fabric.poll(this, 64);
            }
            return n;
        }
    }

    private static Packet packet(PacketKind kind, int target, long bits, byte[] payload) {
        Packet p = new Packet();
        p.clear();
        p.kind = kind;
        p.target = target;
        p.matchBits = bits;
        p.offset = bits * 3;
        if (payload.length > 0) {
            p.payload = MemorySegment.ofArray(payload);
            p.payloadLength = payload.length;
        }
        return p;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void packetsOfRandomSizesArriveWholeAndInOrderAndComeBackToTheSender(long seed) {
        ShmFabric[] f = job(2, r -> SECRET);
        Recorder sender = new Recorder(f[0]);
        Recorder receiver = new Recorder(f[1]);
        Random random = new Random(seed);
        List<byte[]> sent = new ArrayList<>();
        int count = 300;
        for (int i = 0; i < count; i++) {
            byte[] b = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(f[0].maxPayload() + 1)];
            random.nextBytes(b);
            Packet p = packet(PacketKind.DATA, 1, i, b);
            while (!f[0].send(p)) {
                receiver.fabric.poll(receiver, 64); // full: the receiver makes room
            }
            sent.add(b);
            f[0].poll(sender, 64);
        }
        receiver.pollUntil(() -> receiver.packets.size() == count);
        sender.pollUntil(() -> sender.released.size() == count);
        for (int i = 0; i < count; i++) {
            Packet p = receiver.packets.get(i);
            assertEquals(i, p.matchBits, "seed " + seed + ": order");
            assertEquals(3L * i, p.offset, "seed " + seed);
            assertEquals(0, p.source, "seed " + seed);
            assertArrayEquals(sent.get(i), receiver.payloads.get(i), "seed " + seed + ": payload of packet " + i);
        }
        assertTrue(receiver.failed.isEmpty(), receiver.failed.toString());
    }

    @Test
    void ringsAreTheUsersOwnWithUnguessableNamesAndLoseThemOnceEveryPeerHasProvedItself() throws IOException {
        ShmFabric[] f = job(3, r -> SECRET);
        for (ShmFabric x : f) {
            Path p = x.ringPath();
            assertTrue(p.getFileName().toString().matches("jspin-shm-\\d+-\\d+-[0-9a-f]{32}"), p.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
        }
        for (ShmFabric x : f) {
            Recorder r = new Recorder(x);
            r.pollUntil(() -> !Files.exists(x.ringPath()));
        }
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "nothing of the job is left in " + dir);
        }
    }

    @Test
    void aPeerWithoutTheSecretIsFailedByNameAndItsPacketsAreNotTaken() {
        ShmFabric[] f = job(2, r -> r == 0 ? SECRET : "another-secret-of-32-characters!!");
        Recorder receiver = new Recorder(f[0]);
        assertTrue(f[1].send(packet(PacketKind.EAGER, 0, 7, new byte[] {1, 2, 3})));
        receiver.pollUntil(() -> !receiver.failed.isEmpty());
        receiver.fabric.poll(receiver, 64);
        assertTrue(receiver.failed.get(0).startsWith("1: rank 1's hello to rank 0 does not prove the job secret"),
                receiver.failed.toString());
        assertTrue(receiver.packets.isEmpty(), "took " + receiver.packets);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"unknown type", "wrong target", "truncated header"})
    void aMalformedRecordFailsItsSenderByNameAndWritesNothing(String defect) {
        ShmFabric[] f = job(2, r -> SECRET);
        Recorder receiver = new Recorder(f[0]);
        Recorder sender = new Recorder(f[1]);
        // rank 1 writes straight into rank 0's ring, as a buggy or hostile peer could (mapped while it has a name)
        RingFile ring = RingFile.open(f[0].ringPath(), 0, 2, CAPACITY);
        assertTrue(f[1].send(packet(PacketKind.EAGER, 0, 1, new byte[] {9})));
        receiver.pollUntil(() -> receiver.packets.size() == 1);
        try {
            ManyToOneRingBuffer raw = new ManyToOneRingBuffer(ring.ring());
            int type = defect.equals("unknown type") ? 99 : RingRecord.code(PacketKind.EAGER);
            int length = defect.equals("truncated header") ? 8 : RingRecord.HEADER;
            int at = raw.tryClaim(type, length);
            ring.ring().putInt(at + RingRecord.SOURCE_AT, 1);
            ring.ring().putInt(at + RingRecord.TARGET_AT, defect.equals("wrong target") ? 5 : 0);
            raw.commit(at);
        } finally {
            ring.close();
        }
        receiver.pollUntil(() -> !receiver.failed.isEmpty());
        assertEquals(1, receiver.packets.size(), "delivered " + receiver.packets);
        String expected = switch (defect) {
            case "unknown type" -> "1: rank 1 wrote a record of unknown type 99 into rank 0's ring";
            case "wrong target" -> "1: rank 1 wrote a packet addressed to rank 5 into rank 0's ring";
            default -> null;
        };
        if (expected != null) {
            assertEquals(expected, receiver.failed.get(0));
        } else {
            assertTrue(receiver.failed.get(0).startsWith("1: rank 1 wrote a record of 8 bytes"), receiver.failed.toString());
        }
        MpiException e = assertThrows(MpiException.class, () -> f[0].send(packet(PacketKind.EAGER, 1, 2, new byte[0])));
        assertEquals(ErrorClass.ERR_PROC_FAILED, e.errorClass());
        sender.fabric.poll(sender, 64);
    }

    @Test
    void aPeerThatLeavesIsReportedAfterWhatItSentBeforeLeaving() {
        ShmFabric[] f = job(2, r -> SECRET);
        Recorder receiver = new Recorder(f[0]);
        for (int i = 0; i < 5; i++) {
            assertTrue(f[1].send(packet(PacketKind.EAGER, 0, i, new byte[] {(byte) i})));
        }
        f[1].close();
        receiver.pollUntil(() -> !receiver.failed.isEmpty());
        assertEquals(5, receiver.packets.size());
        assertEquals(List.of("1: rank 1 left the job"), receiver.failed);
        MpiException e = assertThrows(MpiException.class, () -> f[0].send(packet(PacketKind.EAGER, 1, 9, new byte[0])));
        assertEquals(ErrorClass.ERR_PROC_FAILED, e.errorClass());
        assertTrue(e.getMessage().contains("rank 1 has left the job"), e.getMessage());
    }

    @Test
    void aSleepingReceiverIsWokenByASendAndASenderByTheRoomItWaitedFor() throws Exception {
        ShmFabric[] f = job(2, r -> SECRET);
        Recorder receiver = new Recorder(f[1]);
        receiver.pollUntil(() -> Files.notExists(f[1].ringPath())); // the hello is in
        CompletableFuture<Long> slept = CompletableFuture.supplyAsync(() -> {
            long t = System.nanoTime();
            f[1].await(TimeUnit.SECONDS.toNanos(10));
            return System.nanoTime() - t;
        }, threads);
        Thread.sleep(200);
        assertTrue(f[0].send(packet(PacketKind.EAGER, 1, 1, new byte[] {1})));
        assertTrue(slept.get(5, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(5), "the send did not wake the receiver");

        // fill rank 1's ring until a send is refused, then let rank 1 read: rank 0, asleep, is woken
        byte[] big = new byte[f[0].maxPayload()];
        int accepted = 0;
        while (f[0].send(packet(PacketKind.DATA, 1, 2, big))) {
            accepted++;
        }
        assertTrue(accepted > 0);
        CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
            long t = System.nanoTime();
            f[0].await(TimeUnit.SECONDS.toNanos(10));
            return System.nanoTime() - t;
        }, threads);
        Thread.sleep(200);
        f[1].poll(receiver, 1);
        assertTrue(waited.get(5, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(5), "reading did not wake the sender");
        assertTrue(f[0].send(packet(PacketKind.DATA, 1, 3, new byte[] {3})), "room was made");
    }

    @Test
    void aPacketBeyondTheRingsLimitIsRefusedWithItsSize() {
        ShmFabric[] f = job(1, r -> SECRET);
        MpiException e = assertThrows(MpiException.class,
                () -> f[0].send(packet(PacketKind.DATA, 0, 1, new byte[f[0].maxPayload() + 1])));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains((f[0].maxPayload() + 1) + " payload bytes"), e.getMessage());
        assertFalse(f[0].hasPending());
    }

    @Test
    void ringsOfProcessesThatEndedAreSweptAndOthersKept() throws IOException {
        Path dead = dir.resolve(RingFile.PREFIX + "999999999-1-00112233445566778899aabbccddeeff");
        Path live = dir.resolve(RingFile.PREFIX + StaleRings.selfTag() + "-00112233445566778899aabbccddeeff");
        Path reused = dir.resolve(RingFile.PREFIX + ProcessHandle.current().pid() + "-1-00112233445566778899aabbccddee00");
        Path other = dir.resolve("unrelated-file");
        for (Path p : List.of(dead, live, reused, other)) {
            Files.createFile(p);
        }
        assertEquals(2, StaleRings.sweep(dir));
        assertFalse(Files.exists(dead), "a ring of a pid that no longer runs");
        assertFalse(Files.exists(reused), "a ring whose pid now runs another process");
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(other));
    }

    /**
     * A payload packed straight into the ring ({@code claim}, then {@code send}) arrives as one
     * copied in does; a claim given back ({@code abandon}) delivers nothing and holds nothing up.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 6})
    void aPayloadWrittenIntoClaimedRingMemoryArrivesAndAnAbandonedClaimVanishes(long seed) {
        ShmFabric[] f = job(2, r -> SECRET);
        Recorder sender = new Recorder(f[0]);
        Recorder receiver = new Recorder(f[1]);
        Random random = new Random(seed);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] b = new byte[1 + random.nextInt(f[0].maxPayload() / 4)];
            random.nextBytes(b);
            Packet p = packet(PacketKind.DATA, 1, i, new byte[0]);
            boolean abandon = random.nextInt(3) == 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!f[0].claim(p, b.length)) {
                assertTrue(System.nanoTime() < deadline, "seed " + seed + ": no room for packet " + i);
                receiver.fabric.poll(receiver, 64);
            }
            assertEquals(b.length, p.payloadLength);
            MemorySegment.copy(MemorySegment.ofArray(b), 0, p.payload, p.payloadOffset, b.length);
            if (abandon) {
                f[0].abandon(p);
            } else {
                assertTrue(f[0].send(p));
                sent.add(b);
            }
            f[1].poll(receiver, 64);
        }
        receiver.pollUntil(() -> receiver.packets.size() == sent.size());
        sender.pollUntil(() -> sender.released.size() == sent.size());
        for (int k = 0; k < sent.size(); k++) {
            assertArrayEquals(sent.get(k), receiver.payloads.get(k), "seed " + seed + ": packet " + k);
        }
        assertEquals(0, f[1].poll(receiver, 64), "nothing more arrives");
    }

    @Test
    void sendingAnotherPacketWhileRingMemoryIsLentIsRefused() {
        ShmFabric[] f = job(2, r -> SECRET);
        Packet claimed = packet(PacketKind.DATA, 1, 1, new byte[0]);
        assertTrue(f[0].claim(claimed, 100));
        assertThrows(IllegalStateException.class, () -> f[0].send(packet(PacketKind.EAGER, 1, 2, new byte[8])));
        assertThrows(IllegalStateException.class, () -> f[0].claim(packet(PacketKind.DATA, 1, 3, new byte[0]), 8));
        f[0].abandon(claimed);
        assertTrue(f[0].send(packet(PacketKind.EAGER, 1, 2, new byte[8])));
    }
}
