package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;

import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random and mutated bytes at the two things that read from a socket before anyone is trusted or
 * while a peer is: the frame decoder and the handshake. Every case must end in a decoded packet
 * that passed the header checks or a closed connection with a reason; nothing may throw out of
 * the pipeline, allocate for a length it has not checked, or leave a buffer unreleased (the
 * direct buffers come from a pooled allocator whose live allocations must be back to none, with
 * Netty's leak detector on paranoid). Each case prints its seed when it fails. The suite runs a
 * quarter of the cases; {@code -Djspin.soak=true} runs them all.
 */
class WireFuzzTest {
    private static final int MAX = 1 << 20;
    private static final boolean SOAK = Boolean.getBoolean("jspin.soak");
    private static final int FRAME_CASES = SOAK ? 100_000 : 25_000;
    private static final int HANDSHAKE_CASES = SOAK ? 20_000 : 5_000;
    private static ResourceLeakDetector.Level level;

    @BeforeAll
    static void paranoid() {
        level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterAll
    static void restore() {
        ResourceLeakDetector.setLevel(level);
    }

    /** A valid frame of a random kind and payload. */
    private static byte[] validFrame(Random rnd) {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.values()[rnd.nextInt(PacketKind.values().length)];
        p.source = rnd.nextInt(4);
        p.target = rnd.nextInt(4);
        p.matchBits = rnd.nextLong();
        p.sendId = rnd.nextLong() & Long.MAX_VALUE;
        p.recvId = rnd.nextLong() & Long.MAX_VALUE;
        p.offset = rnd.nextInt(1 << 20);
        p.messageLength = rnd.nextInt(1 << 20);
        int len = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(3000);
        byte[] payload = new byte[len];
        rnd.nextBytes(payload);
        p.payload = MemorySegment.ofArray(payload);
        p.payloadLength = len;
        ByteBuf h = FrameEncoder.header(UnpooledByteBufAllocator.DEFAULT, p, Integer.MAX_VALUE);
        byte[] b = new byte[h.readableBytes()];
        h.readBytes(b);
        h.release();
        return b;
    }

    /** @return {@code frame} with a few random mutations: bit flips, a cut, random bytes, a huge length */
    private static byte[] mutate(Random rnd, byte[] frame) {
        byte[] b = frame.clone();
        switch (rnd.nextInt(5)) {
            case 0 -> { // flip bits anywhere
                for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
                    int at = rnd.nextInt(b.length);
                    b[at] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            case 1 -> { // flip bits in the header only
                for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                    int at = rnd.nextInt(FrameFormat.HEADER_BYTES);
                    b[at] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            case 2 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length)); // cut short
            case 3 -> { // a declared payload length of anything
                int v = rnd.nextInt();
                int at = FrameFormat.PAYLOAD_LENGTH_AT;
                b[at] = (byte) (v >>> 24);
                b[at + 1] = (byte) (v >>> 16);
                b[at + 2] = (byte) (v >>> 8);
                b[at + 3] = (byte) v;
            }
            default -> rnd.nextBytes(b); // noise of a frame's size
        }
        return b;
    }

    @Test
    @Timeout(120)
    void randomAndMutatedFramesEndInAPacketOrAClosedConnectionAndLeakNothing() {
        // no thread caches, so that every release is counted back at once
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 0, 1, 8192, 9, 0, 0, false);
        int decoded = 0;
        int closed = 0;
        for (int c = 0; c < FRAME_CASES; c++) {
            long seed = 0x5EED_0000L + c;
            Random rnd = new Random(seed);
            List<byte[]> stream = new ArrayList<>();
            int frames = 1 + rnd.nextInt(3);
            for (int i = 0; i < frames; i++) {
                byte[] f = validFrame(rnd);
                stream.add(rnd.nextInt(3) == 0 ? f : mutate(rnd, f));
            }
            FrameDecoder decoder = new FrameDecoder(MAX);
            EmbeddedChannel ch = new EmbeddedChannel(decoder);
            ch.config().setAllocator(alloc);
            try {
                for (byte[] f : stream) {
                    int at = 0;
                    while (at < f.length && ch.isOpen()) { // cut anywhere
                        int n = Math.min(f.length - at, 1 + rnd.nextInt(f.length));
                        ByteBuf b = alloc.directBuffer(n);
                        b.writeBytes(f, at, n);
                        ch.writeInbound(b);
                        at += n;
                    }
                }
                ch.checkException();
                Object o;
                while ((o = ch.readInbound()) != null) {
                    Packet p = (Packet) o;
                    assertTrue(p.payloadLength >= 0 && p.payloadLength <= MAX, "seed " + seed + ": " + p);
                    assertTrue(p.kind != null && p.source >= 0 && p.target >= 0 && p.offset >= 0, "seed " + seed + ": " + p);
                    FrameDecoder.release(p);
                    decoded++;
                }
                if (!ch.isOpen()) {
                    assertTrue(decoder.failure() != null, "seed " + seed + ": closed without a reason");
                    closed++;
                }
                ch.finishAndReleaseAll();
            } catch (AssertionError e) {
                throw e;
            } catch (Throwable t) {
                fail("seed " + seed + ": " + t, t);
            }
        }
        long live = alloc.metric().directArenas().stream().mapToLong(a -> a.numActiveAllocations()).sum();
        assertEquals(0, live, "every buffer was released");
        assertTrue(decoded > FRAME_CASES / 3 && closed > FRAME_CASES / 3,
                "both outcomes were exercised: " + decoded + " packets, " + closed + " closed connections");
    }

    /** The handshake's outcome, which must never be "accepted" for noise. */
    private static final class Outcome implements Handshake.Outcome {
        boolean accepted;

        @Override
        public void accepted(ChannelHandlerContext ctx, int peerRank) {
            accepted = true;
        }

        @Override
        public String admissible(int peerRank) {
            return null;
        }

        @Override
        public void failed(String reason) {
        }
    }

    @ParameterizedTest(name = "{0} side")
    @ValueSource(booleans = {true, false})
    @Timeout(120)
    void randomAndMutatedHandshakeBytesAreNeverAcceptedAndNeverThrow(boolean accepting) {
        String secret = "0123456789abcdef0123456789abcdef";
        for (int c = 0; c < HANDSHAKE_CASES; c++) {
            long seed = 0xAC0_0000L + c + (accepting ? 0 : 1L << 32);
            Random rnd = new Random(seed);
            Outcome outcome = new Outcome();
            Handshake h = accepting ? Handshake.accepting(0, "job", secret, 10_000, outcome)
                    : Handshake.connecting(1, 0, "job", secret, 10_000, outcome);
            EmbeddedChannel ch = new EmbeddedChannel(h);
            try {
                // a plausible start (the right magic and version) half the time, then noise
                ByteBuf b = ch.alloc().buffer();
                if (rnd.nextBoolean()) {
                    int[] magics = {Handshake.HELLO, Handshake.CHALLENGE, Handshake.PROOF, Handshake.WELCOME, Handshake.REFUSED};
                    b.writeInt(magics[rnd.nextInt(magics.length)]).writeByte(Handshake.VERSION);
                }
                byte[] noise = new byte[rnd.nextInt(200)];
                rnd.nextBytes(noise);
                b.writeBytes(noise);
                while (b.isReadable() && ch.isOpen()) {
                    ch.writeInbound(b.readRetainedSlice(Math.min(b.readableBytes(), 1 + rnd.nextInt(64))));
                }
                b.release();
                ch.checkException();
                assertTrue(!outcome.accepted, "seed " + seed + ": noise was accepted");
                ch.finishAndReleaseAll();
            } catch (AssertionError e) {
                throw e;
            } catch (Throwable t) {
                fail("seed " + seed + ": " + t, t);
            }
        }
    }
}
