package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The frame codec on {@link EmbeddedChannel}s: round trips, fragmentation, malformed frames. */
class FrameCodecTest {
    private static final int MAX = 1 << 20;

    private static Packet packet(PacketKind kind, byte[] payload, int from, int len) {
        Packet p = new Packet();
        p.clear();
        p.kind = kind;
        p.source = 3;
        p.target = 5;
        p.matchBits = 0x1234_5678_9abc_def0L;
        p.sendId = 42;
        p.recvId = 43;
        p.offset = 1L << 33;
        p.messageLength = 1L << 34;
        p.signatureHash = -7;
        p.signatureElements = -1;
        if (payload != null) {
            p.payload = MemorySegment.ofArray(payload);
            p.payloadOffset = from;
            p.payloadLength = len;
        }
        return p;
    }

    /** @return the wire bytes of {@code p}, its payload wrapped (copy limit 0) */
    private static ByteBuf encode(Packet p) {
        return encode(p, 0);
    }

    /** @return the wire bytes of {@code p} as the fabric writes them with {@code copyLimit} */
    private static ByteBuf encode(Packet p, int copyLimit) {
        ByteBuf all = Unpooled.buffer();
        ByteBuf h = FrameEncoder.header(UnpooledByteBufAllocator.DEFAULT, p, copyLimit);
        all.writeBytes(h);
        h.release();
        if (!FrameEncoder.copies(p, copyLimit)) {
            ByteBuf b = FrameEncoder.wrapPayload(p);
            all.writeBytes(b);
            b.release();
        }
        return all;
    }

    @ParameterizedTest(name = "copy limit {0}")
    @ValueSource(ints = {0, 700, 1 << 16})
    void aPacketSurvivesTheRoundTripFieldByField(int copyLimit) {
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        ByteBuf wire = encode(packet(PacketKind.DATA, data, 100, 700), copyLimit);
        assertEquals(FrameFormat.HEADER_BYTES + 700, wire.readableBytes());
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX));
        in.writeInbound(wire);
        Packet p = in.readInbound();
        assertNotNull(p);
        ByteBuf held = (ByteBuf) p.owner;
        assertEquals(PacketKind.DATA, p.kind);
        assertEquals(3, p.source);
        assertEquals(5, p.target);
        assertEquals(0x1234_5678_9abc_def0L, p.matchBits);
        assertEquals(42, p.sendId);
        assertEquals(43, p.recvId);
        assertEquals(1L << 33, p.offset);
        assertEquals(1L << 34, p.messageLength);
        assertEquals(-7, p.signatureHash);
        assertEquals(-1, p.signatureElements);
        assertEquals(700, p.payloadLength);
        byte[] got = new byte[700];
        MemorySegment.copy(p.payload, p.payloadOffset, MemorySegment.ofArray(got), 0, 700);
        byte[] want = new byte[700];
        System.arraycopy(data, 100, want, 0, 700);
        assertArrayEquals(want, got, "payload window");
        FrameDecoder.release(p);
        assertEquals(0, held.refCnt(), "releasing the packet frees its buffer");
        assertNull(p.owner);
        assertFalse(in.finish());
    }

    @Test
    void framesSplitAnywhereAndBackToBackDecodeInOrder() {
        ByteBuf wire = Unpooled.buffer();
        for (int i = 0; i < 5; i++) {
            Packet p = packet(i % 2 == 0 ? PacketKind.EAGER : PacketKind.CTS, i % 2 == 0 ? new byte[i * 10] : null, 0,
                    i * 10);
            p.sendId = i;
            wire.writeBytes(encode(p));
        }
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX));
        while (wire.isReadable()) {
            in.writeInbound(wire.readRetainedSlice(1)); // one byte at a time
        }
        wire.release();
        for (int i = 0; i < 5; i++) {
            Packet f = in.readInbound();
            assertNotNull(f, "frame " + i);
            assertEquals(i, f.sendId);
            assertEquals(i % 2 == 0 ? i * 10 : 0, f.payloadLength);
            FrameDecoder.release(f);
        }
        assertNull(in.readInbound());
        assertTrue(in.isActive());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("bad magic", (Consumer<ByteBuf>) b -> b.setInt(0, 0xCAFEBABE), "cafebabe"),
                Arguments.of("future version", (Consumer<ByteBuf>) b -> b.setByte(4, 9), "version 9"),
                Arguments.of("unknown kind", (Consumer<ByteBuf>) b -> b.setByte(5, 77), "kind 77"),
                Arguments.of("flags set", (Consumer<ByteBuf>) b -> b.setShort(6, 0x10), "flags 0x10"),
                Arguments.of("negative source", (Consumer<ByteBuf>) b -> b.setInt(8, -4), "source -4"),
                Arguments.of("negative offset", (Consumer<ByteBuf>) b -> b.setLong(40, -1), "offset -1"),
                Arguments.of("payload above the maximum", (Consumer<ByteBuf>) b -> b.setInt(72, 1 << 30),
                        "payload length 1073741824"),
                Arguments.of("negative payload", (Consumer<ByteBuf>) b -> b.setInt(72, -5), "payload length -5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void aMalformedFrameClosesTheConnectionWithAReason(String what, Consumer<ByteBuf> corrupt, String reason) {
        ByteBuf wire = encode(packet(PacketKind.EAGER, new byte[16], 0, 16));
        corrupt.accept(wire);
        FrameDecoder decoder = new FrameDecoder(MAX);
        EmbeddedChannel in = new EmbeddedChannel(decoder);
        in.writeInbound(wire.readRetainedSlice(FrameFormat.HEADER_BYTES)); // the header alone decides
        assertNull(in.readInbound(), "nothing decoded");
        assertFalse(in.isOpen(), "connection closed");
        assertNotNull(decoder.failure());
        assertTrue(decoder.failure().contains(reason), decoder.failure());
        wire.release();
    }

    @Test
    void aHugeDeclaredPayloadIsRefusedWithoutWaitingForIt() {
        ByteBuf wire = encode(packet(PacketKind.DATA, new byte[8], 0, 8));
        wire.setInt(72, MAX + 1);
        FrameDecoder decoder = new FrameDecoder(MAX);
        EmbeddedChannel in = new EmbeddedChannel(decoder);
        in.writeInbound(wire);
        assertFalse(in.isOpen());
        assertTrue(decoder.failure().contains("outside [0, " + MAX + "]"), decoder.failure());
    }
}
