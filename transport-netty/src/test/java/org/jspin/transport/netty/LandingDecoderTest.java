package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Payloads landing in place ({@link FrameDecoder} with a {@link FrameDecoder.Lander} and
 * {@link LandingReads}) on {@link EmbeddedChannel}s: every byte where it belongs and nowhere else,
 * however the stream is cut, the socket read straight into the landing memory, and nothing
 * written once landing has stopped.
 */
class LandingDecoderTest {
    private static final int MAX = 1 << 20;
    /** Landing memory: a region with guard bytes around it that must stay untouched. */
    private static final int GUARD = 64;
    private static final int REGION = 4096;

    private static Packet data(long offset, byte[] payload) {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.DATA;
        p.source = 1;
        p.target = 0;
        p.sendId = 11;
        p.recvId = 12;
        p.offset = offset;
        p.messageLength = REGION;
        if (payload != null) {
            p.payload = MemorySegment.ofArray(payload);
            p.payloadLength = payload.length;
        }
        return p;
    }

    private static void write(ByteBuf wire, Packet p) {
        ByteBuf h = FrameEncoder.header(UnpooledByteBufAllocator.DEFAULT, p, Integer.MAX_VALUE);
        wire.writeBytes(h);
        h.release();
    }

    /** A lander that places DATA payloads at their offset in {@code region}, and nothing else. */
    private static FrameDecoder.Lander into(MemorySegment region, List<String> asked) {
        return h -> {
            asked.add(h.kind + "@" + h.offset + "+" + h.payloadLength);
            return h.kind == PacketKind.DATA ? region.asSlice(GUARD + h.offset, h.payloadLength) : null;
        };
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void dataPayloadsLandWholeWhereverTheStreamIsCutAndOthersDecodeAsBefore(long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(REGION + 2 * GUARD);
            region.fill((byte) 0x5A);
            byte[] want = new byte[REGION];
            rnd.nextBytes(want);
            ByteBuf wire = Unpooled.buffer();
            List<Long> offsets = new ArrayList<>();
            int at = 0;
            while (at < REGION) {
                int len = Math.min(REGION - at, 1 + rnd.nextInt(900));
                byte[] chunk = new byte[len];
                System.arraycopy(want, at, chunk, 0, len);
                Packet eager = data(0, new byte[1 + rnd.nextInt(50)]);
                eager.kind = PacketKind.EAGER; // between the chunks: kept in a read buffer, never landed
                write(wire, eager);
                write(wire, data(at, chunk));
                offsets.add((long) at);
                at += len;
            }
            List<String> asked = new ArrayList<>();
            EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW, into(region, asked), null));
            while (wire.isReadable()) {
                in.writeInbound(wire.readRetainedSlice(Math.min(wire.readableBytes(), 1 + rnd.nextInt(700))));
            }
            wire.release();
            for (long offset : offsets) {
                Packet e = in.readInbound();
                assertEquals(PacketKind.EAGER, e.kind, "seed " + seed);
                assertFalse(e.placed);
                assertNotNull(e.owner, "an eager payload stays in its read buffer");
                FrameDecoder.release(e);
                Packet d = in.readInbound();
                assertEquals(PacketKind.DATA, d.kind, "seed " + seed);
                assertTrue(d.placed, "seed " + seed + ": chunk at " + offset + " landed");
                assertNull(d.owner, "a landed payload holds no buffer");
                assertEquals(offset, d.offset);
                assertEquals(region.address() + GUARD + offset, d.payload.address() + d.payloadOffset);
            }
            assertNull(in.readInbound());
            assertEquals(2 * offsets.size(), asked.size(), "asked once per frame with a payload");
            for (int i = 0; i < REGION; i++) {
                assertEquals(want[i], region.get(ValueLayout.JAVA_BYTE, GUARD + i), "seed " + seed + ": byte " + i);
            }
            for (int i = 0; i < GUARD; i++) {
                assertEquals(0x5A, region.get(ValueLayout.JAVA_BYTE, i), "guard before, byte " + i);
                assertEquals(0x5A, region.get(ValueLayout.JAVA_BYTE, GUARD + REGION + i), "guard after, byte " + i);
            }
            assertFalse(in.finish());
        }
    }

    @Test
    void theRestOfALandingPayloadIsReadStraightIntoPlaceThenOneHeaderAlone() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(REGION + 2 * GUARD);
            byte[] payload = new byte[3000];
            new Random(9).nextBytes(payload);
            ByteBuf wire = Unpooled.buffer();
            write(wire, data(100, payload));
            LandingReads reads = new LandingReads(new AdaptiveRecvByteBufAllocator());
            RecvByteBufAllocator.Handle handle = reads.newHandle();
            ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
            EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW,
                    into(region, new ArrayList<>()), reads));

            in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES + 10)); // the header and 10 bytes
            assertNull(in.readInbound());
            ByteBuf window = handle.allocate(alloc);
            assertTrue(reads.isWindow(window), "the next read goes into the landing memory");
            assertEquals(2990, window.writableBytes());
            assertEquals(2990, handle.guess());
            window.writeBytes(wire, 1000); // what a socket read of 1000 bytes does
            in.writeInbound(window);
            assertNull(in.readInbound(), "not whole yet");
            ByteBuf rest = handle.allocate(alloc);
            assertTrue(reads.isWindow(rest));
            assertEquals(1990, rest.writableBytes(), "behind the bytes already there");
            rest.writeBytes(wire, 1990);
            in.writeInbound(rest);
            Packet p = in.readInbound();
            assertNotNull(p);
            assertTrue(p.placed);
            assertEquals(MemorySegment.ofArray(payload).mismatch(region.asSlice(GUARD + 100, 3000)), -1L);

            ByteBuf next = handle.allocate(alloc);
            assertFalse(reads.isWindow(next));
            assertEquals(FrameFormat.HEADER_BYTES, next.capacity(), "one header alone after a landed payload");
            next.release();
            ByteBuf normal = handle.allocate(alloc);
            assertTrue(normal.capacity() > FrameFormat.HEADER_BYTES, "then the adaptive buffers again");
            normal.release();
            wire.release();
            assertFalse(in.finish());
        }
    }

    @Test
    void everyReadOfALandingPayloadGoesIntoOneBufferMadeOncePerPayload() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(REGION + 2 * GUARD);
            byte[] payload = new byte[3000];
            new Random(11).nextBytes(payload);
            ByteBuf wire = Unpooled.buffer();
            write(wire, data(0, payload));
            LandingReads reads = new LandingReads(new AdaptiveRecvByteBufAllocator());
            RecvByteBufAllocator.Handle handle = reads.newHandle();
            ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
            EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW,
                    into(region, new ArrayList<>()), reads));

            in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES + 10));
            ByteBuf first = handle.allocate(alloc);
            for (int read = 0; read < 3; read++) { // reads of 1000, 1000 and 990 bytes
                ByteBuf b = read == 0 ? first : handle.allocate(alloc);
                assertSame(first, b, "read " + read + " goes into the same buffer: a read allocates nothing");
                assertEquals(2990 - 1000 * read, b.writableBytes(), "behind the bytes already there");
                b.writeBytes(wire, Math.min(1000, b.writableBytes()));
                in.writeInbound(b);
            }
            Packet p = in.readInbound();
            assertNotNull(p);
            assertTrue(p.placed);
            assertEquals(-1L, MemorySegment.ofArray(payload).mismatch(region.asSlice(GUARD, 3000)));
            assertEquals(0, first.refCnt(), "the view of the landing memory is let go once the payload is whole");
            assertFalse(reads.isWindow(handle.allocate(alloc)), "and the next read goes elsewhere");
            wire.release();
            assertFalse(in.finish());
        }
    }

    /** @return the frame of an EAGER packet carrying {@code payload}, which the landers here decline */
    private static ByteBuf declinedFrame(byte[] payload) {
        Packet eager = data(0, payload);
        eager.kind = PacketKind.EAGER;
        ByteBuf wire = Unpooled.buffer();
        write(wire, eager);
        return wire;
    }

    @Test
    void aPayloadOfItsOwnIsReadIntoItsBodyReadAfterRead() {
        byte[] payload = new byte[3000];
        new Random(12).nextBytes(payload);
        ByteBuf wire = declinedFrame(payload);
        LandingReads reads = new LandingReads(new AdaptiveRecvByteBufAllocator());
        RecvByteBufAllocator.Handle handle = reads.newHandle();
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW, h -> null, reads));

        in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES + 10));
        ByteBuf first = handle.allocate(alloc);
        first.writeBytes(wire, 1500);
        in.writeInbound(first);
        ByteBuf second = handle.allocate(alloc);
        assertSame(first, second, "the payload's own buffer again");
        second.writeBytes(wire, 1490);
        in.writeInbound(second);
        Packet p = in.readInbound();
        assertNotNull(p);
        assertSame(first, p.owner, "the body is the packet's");
        assertEquals(1, first.refCnt(), "held by the packet alone");
        byte[] got = new byte[3000];
        MemorySegment.copy(p.payload, ValueLayout.JAVA_BYTE, p.payloadOffset, got, 0, 3000);
        assertEquals(-1, java.util.Arrays.mismatch(payload, got));
        FrameDecoder.release(p);
        assertEquals(0, first.refCnt());
        wire.release();
        assertFalse(in.finish());
    }

    @Test
    void aPayloadWithoutAPlaceThatIsNotThereYetIsReadStraightIntoABufferOfItsOwn() {
        byte[] payload = new byte[3000];
        new Random(9).nextBytes(payload);
        ByteBuf wire = declinedFrame(payload);
        LandingReads reads = new LandingReads(new AdaptiveRecvByteBufAllocator());
        RecvByteBufAllocator.Handle handle = reads.newHandle();
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW, h -> null, reads));

        in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES + 10)); // the header and 10 bytes
        assertNull(in.readInbound());
        ByteBuf window = handle.allocate(alloc);
        assertTrue(reads.isWindow(window), "the next read goes into the payload's own buffer");
        assertEquals(2990, window.writableBytes(), "as large as the rest, not the adaptive guess");
        window.writeBytes(wire, 2990);
        in.writeInbound(window);
        Packet p = in.readInbound();
        assertNotNull(p);
        assertFalse(p.placed, "the engine's memory was not asked for");
        assertTrue(p.owner instanceof ByteBuf, "the buffer is the packet's until the engine releases it");
        assertEquals(3000, p.payloadLength);
        byte[] got = new byte[3000];
        MemorySegment.copy(p.payload, ValueLayout.JAVA_BYTE, p.payloadOffset, got, 0, 3000);
        assertEquals(-1, java.util.Arrays.mismatch(payload, got));
        ByteBuf owner = (ByteBuf) p.owner;
        FrameDecoder.release(p);
        assertEquals(0, owner.refCnt(), "released with the packet");
        ByteBuf next = handle.allocate(alloc);
        assertEquals(FrameFormat.HEADER_BYTES, next.capacity(), "then one header alone");
        next.release();
        wire.release();
        assertFalse(in.finish());
    }

    @Test
    void afterLandingStopsNothingMoreIsWrittenIntoTheLandingMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(REGION + 2 * GUARD);
            byte[] payload = new byte[2000];
            java.util.Arrays.fill(payload, (byte) 7);
            ByteBuf wire = Unpooled.buffer();
            write(wire, data(0, payload));
            LandingReads reads = new LandingReads(new AdaptiveRecvByteBufAllocator());
            RecvByteBufAllocator.Handle handle = reads.newHandle();
            FrameDecoder decoder = new FrameDecoder(MAX, PacketPool.NEW, into(region, new ArrayList<>()), reads);
            EmbeddedChannel in = new EmbeddedChannel(decoder);
            in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES + 500));
            ByteBuf window = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
            assertTrue(reads.isWindow(window));

            decoder.stopLanding(); // the connection closes: the receive may be gone
            ByteBuf after = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
            assertFalse(reads.isWindow(after), "reads no longer go into the landing memory");
            after.writeBytes(wire, Math.min(after.writableBytes(), wire.readableBytes()));
            in.writeInbound(after);
            assertNull(in.readInbound(), "nothing emitted");
            assertEquals(500, count(region, (byte) 7), "only the bytes before the stop were written");
            window.release();
            wire.release();
        }
    }

    @Test
    void aLanderThatDeclinesLeavesThePayloadInAReadBuffer() {
        ByteBuf wire = Unpooled.buffer();
        write(wire, data(0, new byte[300]));
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, PacketPool.NEW, h -> null, null));
        in.writeInbound(wire);
        Packet p = in.readInbound();
        assertFalse(p.placed);
        assertTrue(p.owner instanceof ByteBuf, "the payload stays in its read buffer");
        FrameDecoder.release(p);
        assertFalse(in.finish());
    }

    private static int count(MemorySegment s, byte value) {
        int n = 0;
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) == value) {
                n++;
            }
        }
        return n;
    }
}
