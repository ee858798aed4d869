package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import org.jspin.nic.fabric.Packet;

/**
 * Writes a packet as a header buffer followed by its payload window, wrapped rather than copied
 * (a contiguous send's bytes go from the user's buffer to the socket; the channel writes both in
 * one gathering write).
 */
final class FrameEncoder extends MessageToMessageEncoder<Packet> {
    FrameEncoder() {
        super(Packet.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Packet p, List<Object> out) {
        ByteBuf h = ctx.alloc().buffer(FrameFormat.HEADER_BYTES, FrameFormat.HEADER_BYTES);
        h.writeInt(FrameFormat.MAGIC)
                .writeByte(FrameFormat.VERSION)
                .writeByte(FrameFormat.code(p.kind))
                .writeShort(0)
                .writeInt(p.source)
                .writeInt(p.target)
                .writeLong(p.matchBits)
                .writeLong(p.sendId)
                .writeLong(p.recvId)
                .writeLong(p.offset)
                .writeLong(p.messageLength)
                .writeLong(p.signatureHash)
                .writeLong(p.signatureElements)
                .writeInt(p.payloadLength);
        out.add(h);
        if (p.payloadLength > 0) {
            MemorySegment window = p.payload.asSlice(p.payloadOffset, p.payloadLength);
            out.add(Unpooled.wrappedBuffer(window.asByteBuffer()));
        }
    }
}
