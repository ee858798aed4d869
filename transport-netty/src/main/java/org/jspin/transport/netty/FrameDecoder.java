package org.jspin.transport.netty;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import org.jspin.nic.fabric.Packet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads frames ({@link FrameFormat}) into {@link InboundFrame}s. The header is checked whole
 * before its payload is waited for: a wrong magic or version, an unknown kind, a negative field
 * or a payload above the maximum is a malformed frame. It closes the connection with a logged
 * reason (the fabric then fails the requests that depended on it) and never throws past this
 * handler or allocates for a length it has not checked.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    private final int maxPayload;
    private String failure;

    /** @param maxPayload the largest payload a frame may declare */
    FrameDecoder(int maxPayload) {
        this.maxPayload = maxPayload;
    }

    /** @return why the connection was closed as malformed, or null */
    String failure() {
        return failure;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failure != null) {
            in.skipBytes(in.readableBytes()); // closing: ignore the rest
            return;
        }
        if (in.readableBytes() < FrameFormat.HEADER_BYTES) {
            return;
        }
        int at = in.readerIndex();
        String bad = check(in, at);
        if (bad != null) {
            failure = bad;
            in.skipBytes(in.readableBytes());
            LOG.warn("closing connection {}: malformed frame: {}", ctx.channel().remoteAddress(), bad);
            ctx.close();
            return;
        }
        int payload = in.getInt(at + FrameFormat.PAYLOAD_LENGTH_AT);
        if (in.readableBytes() < FrameFormat.HEADER_BYTES + payload) {
            return; // the rest of the payload is still on its way
        }
        in.skipBytes(8);
        Packet p = new Packet();
        p.clear();
        p.kind = FrameFormat.kind(in.getByte(at + 5));
        p.source = in.readInt();
        p.target = in.readInt();
        p.matchBits = in.readLong();
        p.sendId = in.readLong();
        p.recvId = in.readLong();
        p.offset = in.readLong();
        p.messageLength = in.readLong();
        p.signatureHash = in.readLong();
        p.signatureElements = in.readLong();
        in.skipBytes(4);
        InboundFrame f = new InboundFrame(p, payload > 0 ? in.readRetainedSlice(payload) : null);
        out.add(f);
    }

    /** @return what is wrong with the header at {@code at}, or null if it is well-formed */
    private String check(ByteBuf in, int at) {
        int magic = in.getInt(at);
        if (magic != FrameFormat.MAGIC) {
            return "bad magic 0x" + Integer.toHexString(magic) + " (expected 0x" + Integer.toHexString(FrameFormat.MAGIC) + ")";
        }
        byte version = in.getByte(at + 4);
        if (version != FrameFormat.VERSION) {
            return "unsupported protocol version " + version + " (this side speaks " + FrameFormat.VERSION + ")";
        }
        byte kind = in.getByte(at + 5);
        if (FrameFormat.kind(kind) == null) {
            return "unknown packet kind " + kind;
        }
        short flags = in.getShort(at + 6);
        if (flags != 0) {
            return "unknown flags 0x" + Integer.toHexString(flags & 0xffff);
        }
        int source = in.getInt(at + 8);
        int target = in.getInt(at + 12);
        if (source < 0 || target < 0) {
            return "negative rank (source " + source + ", target " + target + ")";
        }
        long offset = in.getLong(at + 40);
        long length = in.getLong(at + 48);
        if (offset < 0 || length < 0) {
            return "negative offset " + offset + " or message length " + length;
        }
        int payload = in.getInt(at + FrameFormat.PAYLOAD_LENGTH_AT);
        if (payload < 0 || payload > maxPayload) {
            return "payload length " + payload + " outside [0, " + maxPayload + "]";
        }
        return null;
    }
}
