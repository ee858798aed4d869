package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.netty.channel.ChannelOutboundBuffer;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.events.FrameWriteEvent;
import org.jspin.nic.events.PayloadReceivedEvent;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.bootstrap.EndpointExchange;
import org.jspin.bootstrap.InJvmExchange;
import org.jspin.transport.netty.join.NettyLaunch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Netty fabric over real loopback sockets, without an engine: packets both ways (copied and
 * written in place), data held back to be written together, to itself, the handshake refusing strangers and wrong secrets, a malformed
 * frame or a forged source failing only that peer, back-pressure, and departures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyFabricTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    /** A thread per joining rank: each constructor waits for the others (the common pool may have one thread). */
    private static final java.util.concurrent.Executor THREAD = r -> Thread.ofPlatform().daemon().start(r);

    /** Records what a fabric delivers. */
    private static class Recorder implements PacketHandler {
        final List<Packet> arrived = new ArrayList<>();
        final List<Packet> released = new ArrayList<>();
        final Map<Integer, String> failed = new ConcurrentHashMap<>();

        @Override
        public void onPacket(Packet p) {
            arrived.add(p);
        }

        @Override
        public void onReleased(Packet p) {
            released.add(p);
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            failed.put(rank, reason);
        }
    }

    /** An exchange that remembers every endpoint it handed out (so a test can reach a rank's port). */
    private static final class Recording implements EndpointExchange {
        final EndpointExchange inner;
        volatile List<String> seen;

        Recording(EndpointExchange inner) {
            this.inner = inner;
        }

        @Override
        public List<String> exchange(int rank, String endpoint, Duration timeout) {
            List<String> all = inner.exchange(rank, endpoint, timeout);
            seen = all;
            return all;
        }
    }

    private static NettyLaunch launch(String secret, EndpointExchange exchange, Duration timeout) {
        return new NettyLaunch(secret, exchange, NettyLaunch.LOOPBACK, timeout);
    }

    /** Opens {@code n} ranks of one job concurrently (each constructor waits for the others). */
    private static List<NettyFabric> open(int n, String job) {
        InJvmExchange exchange = new InJvmExchange(n);
        List<CompletableFuture<NettyFabric>> f = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int rank = r;
            f.add(CompletableFuture.supplyAsync(
                    () -> new NettyFabric(job, n, rank, launch(SECRET, exchange, Duration.ofSeconds(20))), THREAD));
        }
        return f.stream().map(CompletableFuture::join).toList();
    }

    /** Polls every fabric from this thread until {@code done}. */
    private static void pollUntil(BooleanSupplier done, List<NettyFabric> fabrics, List<Recorder> recorders) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            for (int i = 0; i < fabrics.size(); i++) {
                fabrics.get(i).poll(recorders.get(i), 64);
            }
        }
    }

    private static Packet packet(PacketKind kind, int target, MemorySegment payload, long from, int length) {
        Packet p = new Packet();
        p.clear();
        p.kind = kind;
        p.target = target;
        p.matchBits = 0xABCDL;
        p.sendId = 17;
        p.messageLength = length;
        if (payload != null) {
            p.payload = payload;
            p.payloadOffset = from;
            p.payloadLength = length;
        }
        return p;
    }

    private static byte[] bytes(Packet p) {
        byte[] b = new byte[p.payloadLength];
        MemorySegment.copy(p.payload, p.payloadOffset, MemorySegment.ofArray(b), 0, b.length);
        return b;
    }

    @Test
    void packetsTravelBothWaysCopiedAndInPlaceAndComeBackToTheirSender() {
        List<NettyFabric> f = open(2, "both-ways");
        List<Recorder> rec = List.of(new Recorder(), new Recorder());
        try (Arena arena = Arena.ofShared()) {
            byte[] small = new byte[100];
            new Random(1).nextBytes(small);
            MemorySegment big = arena.allocate(NettySettings.COPY_LIMIT.fallback() * 4L + 3);
            for (long i = 0; i < big.byteSize(); i++) {
                big.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
            }
            Packet a = packet(PacketKind.EAGER, 1, MemorySegment.ofArray(small), 0, small.length);
            Packet b = packet(PacketKind.DATA, 0, big, 3, (int) big.byteSize() - 3);
            Packet c = packet(PacketKind.CTS, 1, null, 0, 0);
            assertTrue(f.get(0).send(a));
            assertTrue(f.get(1).send(b));
            assertTrue(f.get(0).send(c));
            pollUntil(() -> rec.get(1).arrived.size() == 2 && rec.get(0).arrived.size() == 1
                    && rec.get(0).released.size() == 2 && rec.get(1).released.size() == 1, f, rec);
            Packet gotA = rec.get(1).arrived.get(0);
            assertEquals(PacketKind.EAGER, gotA.kind);
            assertEquals(0, gotA.source, "the fabric stamps the sender");
            assertEquals(0xABCDL, gotA.matchBits);
            assertArrayEquals(small, bytes(gotA));
            assertEquals(PacketKind.CTS, rec.get(1).arrived.get(1).kind, "order per link kept");
            Packet gotB = rec.get(0).arrived.get(0);
            byte[] want = big.asSlice(3).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertArrayEquals(want, bytes(gotB), "a payload written in place arrives intact");
            assertTrue(rec.get(1).released.contains(b), "the in-place packet came back once written");
            for (Packet p : rec.get(1).arrived) {
                f.get(1).release(p);
            }
            f.get(0).release(gotB);
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    @Test
    void framesWithAPayloadAreRecordedWrittenAndReceivedWhenARecordingAsksForThem() throws IOException {
        List<NettyFabric> f = open(2, "events");
        List<Recorder> rec = List.of(new Recorder(), new Recorder());
        Path file = Files.createTempFile("fabric-events", ".jfr");
        // jdk.jfr.Recording by its full name: Recording here is the exchange below
        try (Arena arena = Arena.ofShared(); jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(FrameWriteEvent.class);
            recording.enable(PayloadReceivedEvent.class);
            MemorySegment big = arena.allocate(NettySettings.COPY_LIMIT.fallback() * 4L);
            long before = System.nanoTime();
            recording.start();
            Packet small = packet(PacketKind.EAGER, 1, MemorySegment.ofArray(new byte[100]), 0, 100);
            Packet data = packet(PacketKind.DATA, 0, big, 0, (int) big.byteSize());
            data.offset = 5 << 20;
            assertTrue(f.get(0).send(small));                       // copied into its frame
            assertTrue(f.get(1).send(data));                        // written in place
            assertTrue(f.get(0).send(packet(PacketKind.CTS, 1, null, 0, 0))); // no payload: no event
            pollUntil(() -> rec.get(1).arrived.size() == 2 && rec.get(0).arrived.size() == 1
                    && rec.get(1).released.size() == 1, f, rec);
            recording.stop();
            long after = System.nanoTime();
            recording.dump(file);
            List<RecordedEvent> all = RecordingFile.readAllEvents(file);
            List<RecordedEvent> writes = named(all, "jspin.FrameWrite");
            List<RecordedEvent> reads = named(all, "jspin.PayloadReceived");
            assertEquals(2, writes.size(), "one per frame with a payload: " + writes);
            assertEquals(2, reads.size(), "one per payload received: " + reads);
            RecordedEvent w = writes.stream().filter(e -> e.getString("kind").equals("DATA"))
                    .findFirst().orElseThrow();
            assertEquals(1, w.getInt("source"));
            assertEquals(0, w.getInt("target"));
            assertEquals(5L << 20, w.getLong("offset"));
            assertEquals(big.byteSize(), w.getLong("payload"));
            RecordedEvent r = reads.stream().filter(e -> e.getString("kind").equals("DATA"))
                    .findFirst().orElseThrow();
            assertEquals(1, r.getInt("source"));
            assertEquals(0, r.getInt("target"));
            assertEquals(5L << 20, r.getLong("offset"));
            assertEquals(big.byteSize(), r.getLong("payload"));
            assertFalse(r.getBoolean("landed"), "nobody offered it a place");
            RecordedEvent e = reads.stream().filter(x -> x.getString("kind").equals("EAGER"))
                    .findFirst().orElseThrow();
            assertEquals(100, e.getLong("payload"));
            assertEquals(0, e.getInt("source"));
            for (RecordedEvent x : List.of(w, r, e)) {
                long clock = x.getLong("clock");
                assertTrue(clock >= before && clock <= after, "the monotonic clock of this machine: " + x);
            }
            assertTrue(r.getLong("sinceHeader") >= 0 && r.getLong("clock") + r.getLong("sinceHeader") <= after);
            for (Packet p : rec.get(1).arrived) {
                f.get(1).release(p);
            }
            f.get(0).release(rec.get(0).arrived.get(0));
        } finally {
            f.forEach(NettyFabric::close);
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aPacketToItselfTravelsByReference() {
        List<NettyFabric> f = open(1, "self");
        List<Recorder> rec = List.of(new Recorder());
        try {
            Packet p = packet(PacketKind.EAGER, 0, MemorySegment.ofArray(new byte[8]), 0, 8);
            assertTrue(f.get(0).send(p));
            pollUntil(() -> rec.get(0).arrived.size() == 1, f, rec);
            assertEquals(p, rec.get(0).arrived.get(0));
            f.get(0).release(p);
            pollUntil(() -> rec.get(0).released.size() == 1, f, rec);
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    @Test
    void aRankWithTheWrongSecretIsRefusedAndTheJobFailsToStart() {
        InJvmExchange exchange = new InJvmExchange(2);
        CompletableFuture<NettyFabric> zero = CompletableFuture.supplyAsync(
                () -> new NettyFabric("secret-job", 2, 0, launch(SECRET, exchange, Duration.ofSeconds(3))), THREAD);
        MpiException one = assertThrows(MpiException.class, () -> new NettyFabric("secret-job", 2, 1,
                launch("ffffffffffffffffffffffffffffffff", exchange, Duration.ofSeconds(3))));
        assertEquals(ErrorClass.ERR_OTHER, one.errorClass());
        assertTrue(one.getMessage().contains("wrong job secret"), one.getMessage());
        MpiException z = assertThrows(java.util.concurrent.CompletionException.class, zero::join).getCause() instanceof MpiException m
                ? m : null;
        assertNotNull(z);
        assertTrue(z.getMessage().contains("no connection with ranks [1]"), z.getMessage());
    }

    @Test
    void aStrangerSpeakingSomethingElseIsClosedAndTheJobCarriesOn() throws IOException {
        Recording exchange = new Recording(new InJvmExchange(1));
        NettyFabric f = new NettyFabric("stranger", 1, 0, launch(SECRET, exchange, Duration.ofSeconds(5)));
        Recorder rec = new Recorder();
        try (Socket s = socketTo(exchange.seen.get(0))) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int magic = 0;
            while (System.nanoTime() < deadline && in.available() < 4) {
                f.poll(rec, 64);
            }
            magic = in.readInt();
            assertEquals(Handshake.REFUSED, magic, "refused with a reason");
            in.readByte();
            byte[] reason = new byte[in.readUnsignedShort()];
            in.readFully(reason);
            assertTrue(new String(reason, StandardCharsets.UTF_8).contains("not a jspin hello"));
            while (System.nanoTime() < deadline && in.read() >= 0) {
                f.poll(rec, 64);
            }
            assertEquals(-1, in.read(), "closed");
        }
        assertTrue(rec.failed.isEmpty(), "a stranger is no peer: " + rec.failed);
        Packet p = packet(PacketKind.EAGER, 0, MemorySegment.ofArray(new byte[4]), 0, 4);
        assertTrue(f.send(p), "the rank still works");
        f.close();
    }

    @Test
    void aMalformedFrameFromAProvenPeerFailsThatPeerOnly() throws IOException {
        expectPeerFailure(out -> {
            out.writeInt(0xCAFEBABE); // bad magic
            out.write(new byte[FrameFormat.HEADER_BYTES - 4]);
        }, "malformed frame");
    }

    @Test
    void aPacketClaimingAnotherSourceFailsThatPeer() throws IOException {
        expectPeerFailure(out -> {
            Packet p = packet(PacketKind.EAGER, 0, null, 0, 0);
            p.source = 5; // rank 1's connection, but claims rank 5
            var h = FrameEncoder.header(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, p, 0);
            byte[] b = new byte[h.readableBytes()];
            h.readBytes(b);
            h.release();
            out.write(b);
        }, "packet 5->0 on the connection between ranks 1 and 0");
    }

    private interface Wire {
        void write(DataOutputStream out) throws IOException;
    }

    /** Plays rank 1 by hand: a correct handshake, then {@code bad}; rank 0 must report rank 1 failed. */
    private static void expectPeerFailure(Wire bad, String reason) throws IOException {
        // rank 1 is this test: rank 0 learns a made-up endpoint for it (it never connects there)
        Recording exchange = new Recording((rank, endpoint, timeout) -> List.of(endpoint, "127.0.0.1:1"));
        CompletableFuture<NettyFabric> zero = CompletableFuture.supplyAsync(
                () -> new NettyFabric("fake-peer", 2, 0, launch(SECRET, exchange, Duration.ofSeconds(10))), THREAD);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (exchange.seen == null) {
            assertTrue(System.nanoTime() < deadline);
            Thread.onSpinWait();
        }
        try (Socket s = socketTo(exchange.seen.get(0))) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            byte[] job = "fake-peer".getBytes(StandardCharsets.UTF_8);
            byte[] nonce = new byte[Handshake.NONCE];
            new java.util.Random(5).nextBytes(nonce);
            out.writeInt(Handshake.HELLO);
            out.writeByte(Handshake.VERSION);
            out.writeInt(1);
            out.writeShort(job.length);
            out.write(job);
            out.write(nonce);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(Handshake.CHALLENGE, in.readInt());
            in.readByte();
            assertEquals(0, in.readInt());
            byte[] theirNonce = new byte[Handshake.NONCE];
            in.readFully(theirNonce);
            in.readFully(new byte[Handshake.PROOF_BYTES]);
            out.writeInt(Handshake.PROOF);
            out.writeByte(Handshake.VERSION);
            out.write(Handshake.proof(SECRET.getBytes(StandardCharsets.UTF_8), false, "fake-peer", 1, 0, nonce,
                    theirNonce));
            out.flush();
            assertEquals(Handshake.WELCOME, in.readInt());
            in.readByte();
            assertEquals(0, in.readInt());
            NettyFabric f = zero.join(); // connected to its one peer: started
            Recorder rec = new Recorder();
            bad.write(out);
            out.flush();
            while (!rec.failed.containsKey(1)) {
                assertTrue(System.nanoTime() < deadline, "rank 1 was never reported failed");
                f.poll(rec, 64);
            }
            assertTrue(rec.failed.get(1).contains("connection lost"), rec.failed.get(1));
            assertTrue(rec.arrived.isEmpty(), "nothing of the bad frame was delivered");
            MpiException e = assertThrows(MpiException.class,
                    () -> f.send(packet(PacketKind.EAGER, 1, null, 0, 0)));
            assertEquals(ErrorClass.ERR_PROC_FAILED, e.errorClass());
            f.close();
        }
    }

    /**
     * An engine may match an RTS as its header arrives, so the fabric asks about an RTS only when
     * every packet read before it has been delivered: an eager message just ahead of it in the same
     * read could match the same receive. Packets carry their place in the stream as their send id.
     */
    @Test
    void anRtsIsOfferedForLandingOnlyWhenEverythingBeforeItHasBeenDelivered() {
        List<NettyFabric> f = open(2, "rts-order");
        List<Long> asked = new ArrayList<>();
        List<String> early = new ArrayList<>();
        Recorder sender = new Recorder();
        Recorder receiver = new Recorder() {
            @Override
            public MemorySegment landing(Packet header) {
                if (header.kind == PacketKind.RTS) {
                    asked.add(header.sendId);
                    if (arrived.size() != header.sendId) {
                        early.add("RTS #" + header.sendId + " offered with " + arrived.size() + " delivered");
                    }
                }
                return null;
            }
        };
        try (Arena arena = Arena.ofShared()) {
            MemorySegment payload = arena.allocate(4096);
            int n = 41; // an RTS, then pairs of an eager message and an RTS, written before rank 1 reads any
            for (int i = 0; i < n; i++) {
                PacketKind kind = i % 2 == 0 ? PacketKind.RTS : PacketKind.EAGER;
                Packet p = packet(kind, 1, payload, 0, i % 2 == 0 ? 4096 : 64);
                p.sendId = i;
                assertTrue(f.get(0).send(p));
            }
            List<Recorder> rec = List.of(sender, receiver);
            pollUntil(() -> receiver.arrived.size() == n && sender.released.size() == n, f, rec);
            assertEquals(List.of(), early);
            assertEquals(0L, asked.get(0), "an RTS with nothing before it is offered");
            for (int i = 0; i < n; i++) {
                assertEquals(i, receiver.arrived.get(i).sendId, "in order");
                f.get(1).release(receiver.arrived.get(i));
            }
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    /** @return whether the channel holds written bytes back from the socket (written, none flushed) */
    private static boolean holds(NettyFabric f, int peer) {
        ChannelOutboundBuffer out = f.connectionTo(peer).unsafe().outboundBuffer();
        return out.size() == 0 && out.totalPendingWriteBytes() > 0;
    }

    @Test
    void dataSentInPlaceIsHeldUntilAFlushAPollOrTwoMebibytesAndAnyOtherPacketTakesItAlong() {
        List<NettyFabric> f = open(2, "held");
        List<Recorder> rec = List.of(new Recorder(), new Recorder());
        try (Arena arena = Arena.ofShared()) {
            MemorySegment big = arena.allocate(3L << 20);
            for (long i = 0; i < big.byteSize(); i += 8) {
                big.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
            }
            int chunk = 512 << 10;
            NettyFabric sender = f.get(0);
            // two chunks in place: held; a CTS behind them takes them along, in order
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, 0, chunk)));
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, chunk, chunk)));
            assertTrue(holds(sender, 1), "two chunks in place are held");
            assertTrue(sender.send(packet(PacketKind.CTS, 1, null, 0, 0)));
            assertFalse(holds(sender, 1), "a control packet is written with what was held before it");
            // held, then written by the core's flush
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, 2L * chunk, chunk)));
            assertTrue(holds(sender, 1));
            sender.flush();
            assertFalse(holds(sender, 1), "flush writes what was held");
            // held, then written by the next poll
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, 3L * chunk, chunk)));
            assertTrue(holds(sender, 1));
            sender.poll(rec.get(0), 64);
            assertFalse(holds(sender, 1), "a poll writes what was held");
            // 1 MiB held; the next 1 MiB reaches 2 MiB and goes with it
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, 4L * chunk, 2 * chunk)));
            assertTrue(holds(sender, 1));
            assertTrue(sender.send(packet(PacketKind.DATA, 1, big, 0, 2 * chunk)));
            assertFalse(holds(sender, 1), "2 MiB held are written at once");
            // a packed chunk (the packet's own staging) is written at once
            MemorySegment staging = arena.allocate(chunk);
            MemorySegment.copy(big, 7, staging, 0, chunk);
            Packet packed = packet(PacketKind.DATA, 1, staging, 0, chunk);
            packed.staging(staging);
            assertTrue(sender.send(packed));
            assertFalse(holds(sender, 1), "data the CPU packed is not held");

            pollUntil(() -> rec.get(1).arrived.size() == 8, f, rec);
            List<Packet> got = rec.get(1).arrived;
            long[] from = {0, chunk, -1, 2L * chunk, 3L * chunk, 4L * chunk, 0, -2};
            for (int i = 0; i < from.length; i++) {
                Packet p = got.get(i);
                if (from[i] == -1) {
                    assertEquals(PacketKind.CTS, p.kind, "packet " + i + ": order per link kept");
                    continue;
                }
                assertEquals(PacketKind.DATA, p.kind, "packet " + i);
                MemorySegment want = from[i] == -2 ? staging : big.asSlice(from[i], p.payloadLength);
                assertArrayEquals(want.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), bytes(p), "packet " + i);
            }
            for (Packet p : got) {
                f.get(1).release(p);
            }
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    @Test
    void aReceiverThatStopsReadingMakesTheSenderRefuseRatherThanBuffer() {
        List<NettyFabric> f = open(2, "back-pressure");
        Recorder rec = new Recorder();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment chunk = arena.allocate(1 << 20);
            long accepted = 0;
            int refusals = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // rank 1 is never polled: its socket buffer fills, then rank 0's, then rank 0 refuses
            while (refusals < 100 && System.nanoTime() < deadline) {
                Packet p = packet(PacketKind.DATA, 1, chunk, 0, (int) chunk.byteSize());
                if (f.get(0).send(p)) {
                    accepted += chunk.byteSize();
                } else {
                    refusals++;
                }
                f.get(0).poll(rec, 64);
                assertTrue(accepted < 256L << 20, "accepted " + accepted + " bytes without back-pressure");
            }
            assertEquals(100, refusals, "the sender never refused");
            assertFalse(rec.released.size() * (long) chunk.byteSize() > accepted);
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    @Test
    void aRankThatLeavesIsReportedToItsPeers() {
        List<NettyFabric> f = open(3, "leaving");
        List<Recorder> rec = List.of(new Recorder(), new Recorder(), new Recorder());
        try {
            f.get(2).close();
            pollUntil(() -> rec.get(0).failed.containsKey(2) && rec.get(1).failed.containsKey(2), f.subList(0, 2),
                    rec.subList(0, 2));
            assertFalse(rec.get(0).failed.containsKey(1));
        } finally {
            f.get(0).close();
            f.get(1).close();
        }
    }

    /**
     * Both ends of a connection between two ranks of this host run {@code reno} by default, and the
     * kernel's default with {@code -Djspin.netty.congestion=system}; packets flow either way.
     */
    @Test
    void connectionsWithinTheHostRunRenoUnlessTheSettingLeavesTheKernelsDefault() throws Exception {
        String kernelDefault = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).trim();
        for (String setting : new String[] {null, "system"}) {
            String want = setting == null ? "reno" : kernelDefault;
            if (setting != null) {
                System.setProperty("jspin.netty.congestion", setting);
            }
            List<NettyFabric> f;
            try {
                f = open(2, "congestion-" + setting);
            } finally {
                System.clearProperty("jspin.netty.congestion");
            }
            List<Recorder> rec = List.of(new Recorder(), new Recorder());
            try {
                assertTrue(EventLoops.EPOLL, "the native transport, which can set it");
                assertEquals(want, CongestionControl.current(f.get(0).connectionTo(1)), "rank 0's end, " + setting);
                assertEquals(want, CongestionControl.current(f.get(1).connectionTo(0)), "rank 1's end, " + setting);
                byte[] data = new byte[200_000];
                new Random(3).nextBytes(data);
                assertTrue(f.get(0).send(packet(PacketKind.EAGER, 1, MemorySegment.ofArray(data), 0, data.length)));
                pollUntil(() -> rec.get(1).arrived.size() == 1, f, rec);
                assertArrayEquals(data, bytes(rec.get(1).arrived.get(0)));
                f.get(1).release(rec.get(1).arrived.get(0));
            } finally {
                f.forEach(NettyFabric::close);
            }
        }
    }

    /**
     * With one peer, most polls read its socket directly (Netty's read path reached through a
     * private lookup: this fails if a Netty upgrade takes it away); frames, the bytes behind them
     * and the peer's departure come through as they do through epoll. With two peers, every poll
     * goes through epoll.
     */
    @Test
    void aRankWithOnePeerReadsItsSocketDirectlyAndStillSeesItLeave() {
        assertEquals(EventLoops.EPOLL, DirectReads.AVAILABLE, "Netty's epoll read path is reachable");
        List<NettyFabric> f = open(2, "direct");
        List<Recorder> rec = List.of(new Recorder(), new Recorder());
        try {
            byte[] data = new byte[3000];
            new Random(2).nextBytes(data);
            for (int i = 0; i < 50; i++) {
                assertTrue(f.get(0).send(packet(PacketKind.EAGER, 1, MemorySegment.ofArray(data), 0, data.length)));
                int want = i + 1;
                pollUntil(() -> rec.get(1).arrived.size() == want, f, rec);
            }
            for (Packet p : rec.get(1).arrived) {
                assertArrayEquals(data, bytes(p));
                f.get(1).release(p);
            }
            if (EventLoops.EPOLL) {
                assertTrue(f.get(1).directPolls() > 0, "rank 1 never read its peer's socket directly");
            }
            f.get(0).close();
            pollUntil(() -> rec.get(1).failed.containsKey(0), f.subList(1, 2), rec.subList(1, 2));
        } finally {
            f.forEach(NettyFabric::close);
        }
        List<NettyFabric> three = open(3, "three");
        List<Recorder> rec3 = List.of(new Recorder(), new Recorder(), new Recorder());
        try {
            assertTrue(three.get(0).send(packet(PacketKind.CTS, 1, null, 0, 0)));
            pollUntil(() -> rec3.get(1).arrived.size() == 1, three, rec3);
            assertEquals(0, three.get(1).directPolls(), "two peers: epoll says which socket to read");
        } finally {
            three.forEach(NettyFabric::close);
        }
    }

    /**
     * A stream of frames written before the receiver reads any (seeded): payloads of random sizes,
     * from a few bytes to beyond a read buffer, landing in the receiver's memory or in buffers of
     * their own, between frames without a payload. Each read may end anywhere in a header or a
     * payload; every payload arrives whole, in order, and a landed one in its place.
     */
    @Test
    void aStreamOfPayloadsLandingOrNotArrivesWholeInOrderWhereverTheReadsEnd() {
        List<NettyFabric> f = open(2, "scatter");
        long seed = 20261205L;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        int n = 80;
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) {
            sizes[i] = i % 5 == 4 ? 0 : 1 + rnd.nextInt(i % 3 == 0 ? 300_000 : 5_000);
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment source = arena.allocate(300_000 + n); // payload i starts at byte i
            for (long i = 0; i < source.byteSize(); i++) {
                source.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            MemorySegment[] places = new MemorySegment[n];
            Recorder sender = new Recorder();
            Recorder receiver = new Recorder() {
                @Override
                public MemorySegment landing(Packet header) {
                    int i = (int) header.sendId;
                    if (i % 2 == 1) {
                        return null; // into a read buffer
                    }
                    places[i] = arena.allocate(header.payloadLength);
                    return places[i];
                }
            };
            for (int i = 0; i < n; i++) {
                Packet p = sizes[i] == 0 ? packet(PacketKind.CTS, 1, null, 0, 0)
                        : packet(PacketKind.DATA, 1, source, i, sizes[i]);
                p.sendId = i;
                assertTrue(f.get(0).send(p));
            }
            List<Recorder> rec = List.of(sender, receiver);
            pollUntil(() -> receiver.arrived.size() == n, f, rec);
            for (int i = 0; i < n; i++) {
                Packet got = receiver.arrived.get(i);
                assertEquals(i, got.sendId, "in order, seed " + seed);
                if (sizes[i] == 0) {
                    assertEquals(PacketKind.CTS, got.kind);
                } else {
                    byte[] want = source.asSlice(i, sizes[i]).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                    assertArrayEquals(want, bytes(got), "payload " + i + " of " + sizes[i] + " B, seed " + seed);
                    assertEquals(i % 2 == 0, got.placed, "payload " + i + " landed where it was given a place");
                    if (got.placed) {
                        assertArrayEquals(want, places[i].toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                    }
                }
                f.get(1).release(got);
            }
        } finally {
            f.forEach(NettyFabric::close);
        }
    }

    private static Socket socketTo(String endpoint) throws IOException {
        int colon = endpoint.lastIndexOf(':');
        Socket s = new Socket(endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)));
        s.setSoTimeout(10_000);
        return s;
    }
}
