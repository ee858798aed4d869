package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import org.jspin.nic.fabric.Packet;

/**
 * Turns a packet into wire bytes ({@link FrameFormat}) on the sending engine's thread, so the
 * packet can be reused as soon as what it shows has been either copied or written.
 *
 * <p>A payload up to {@code copyLimit} bytes is copied behind the header into one pooled buffer:
 * for small messages a second buffer and a write-completion callback cost more than the copy. A
 * larger payload in native memory is wrapped, not copied (a contiguous send's bytes go from the user's buffer
 * straight to the socket in one gathering write), and the packet stays the fabric's until Netty
 * reports the write done.
 */
final class FrameEncoder {
    private FrameEncoder() {
    }

    /**
     * @return whether {@link #header} copies this packet's payload (so the packet is free once it
     *         returns): small payloads, and payloads on the Java heap, which the socket cannot read
     *         in place (Netty would copy them to native memory anyway)
     */
    static boolean copies(Packet p, int copyLimit) {
        return p.payloadLength <= copyLimit || !p.payload.isNative();
    }

    /** @return a pooled buffer with the header and, if {@link #copies}, the payload behind it */
    static ByteBuf header(ByteBufAllocator alloc, Packet p, int copyLimit) {
        boolean copy = copies(p, copyLimit);
        int size = FrameFormat.HEADER_BYTES + (copy ? p.payloadLength : 0);
        ByteBuf h = alloc.directBuffer(size, size);
        h.setInt(FrameFormat.MAGIC_AT, FrameFormat.MAGIC)
                .setByte(FrameFormat.VERSION_AT, FrameFormat.VERSION)
                .setByte(FrameFormat.KIND_AT, FrameFormat.code(p.kind))
                .setShort(FrameFormat.FLAGS_AT, 0)
                .setInt(FrameFormat.SOURCE_AT, p.source)
                .setInt(FrameFormat.TARGET_AT, p.target)
                .setLong(FrameFormat.MATCH_BITS_AT, p.matchBits)
                .setLong(FrameFormat.SEND_ID_AT, p.sendId)
                .setLong(FrameFormat.RECV_ID_AT, p.recvId)
                .setLong(FrameFormat.OFFSET_AT, p.offset)
                .setLong(FrameFormat.MESSAGE_LENGTH_AT, p.messageLength)
                .setLong(FrameFormat.SIGNATURE_HASH_AT, p.signatureHash)
                .setLong(FrameFormat.SIGNATURE_ELEMENTS_AT, p.signatureElements)
                .setInt(FrameFormat.PAYLOAD_LENGTH_AT, p.payloadLength)
                .writerIndex(FrameFormat.HEADER_BYTES);
        if (copy && p.payloadLength > 0) {
            int at = h.writerIndex();
            h.writerIndex(at + p.payloadLength);
            MemorySegment to = DirectMemory.segment(h, at, p.payloadLength);
            MemorySegment.copy(p.payload, p.payloadOffset, to, DirectMemory.offset(to, h, at), p.payloadLength);
        }
        return h;
    }

    /** @return the payload window as a buffer over the same memory (for packets {@link #header} does not copy) */
    static ByteBuf wrapPayload(Packet p) {
        return Unpooled.wrappedBuffer(p.payload.asSlice(p.payloadOffset, p.payloadLength).asByteBuffer());
    }
}
