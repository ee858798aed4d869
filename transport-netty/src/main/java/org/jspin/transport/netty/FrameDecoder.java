package org.jspin.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import org.jspin.nic.fabric.Packet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads frames ({@link FrameFormat}) into packets and fires each one on. A packet's payload stays
 * in a Netty buffer, held in {@link Packet#owner} until the engine releases the packet
 * ({@link #release}).
 *
 * <p>The header is checked whole before its payload is waited for: a wrong magic or version, an
 * unknown kind, a negative field or a payload above the maximum is a malformed frame. It closes
 * the connection with a logged reason (the fabric then fails the requests that depended on it)
 * and never throws past this handler or allocates for a length it has not checked.
 *
 * <p>Not a {@code ByteToMessageDecoder}: its cumulation buffer grows by copying, which for
 * 256 KiB chunks arriving in 64 KiB reads doubles the bytes copied. Here a payload that arrived
 * whole is sliced out of the read buffer, and one that did not is copied once into a buffer of
 * exactly its size.
 */
final class FrameDecoder extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    private final int maxPayload;
    private final PacketPool pool;
    private ByteBuf header;
    private Packet current;
    private ByteBuf body;
    private String failure;

    /** @param maxPayload the largest payload a frame may declare */
    FrameDecoder(int maxPayload) {
        this(maxPayload, PacketPool.NEW);
    }

    /**
     * @param maxPayload the largest payload a frame may declare
     * @param pool       where packets come from
     */
    FrameDecoder(int maxPayload, PacketPool pool) {
        this.maxPayload = maxPayload;
        this.pool = pool;
    }

    /** @return why the connection was closed as malformed, or null */
    String failure() {
        return failure;
    }

    /** Frees what a decoded packet holds (its payload buffer). */
    static void release(Packet p) {
        if (p.owner instanceof ByteBuf b) {
            p.owner = null;
            b.release();
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        header = ctx.alloc().heapBuffer(FrameFormat.HEADER_BYTES, FrameFormat.HEADER_BYTES);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        header.release();
        if (body != null) {
            body.release();
            body = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            while (failure == null && in.isReadable()) {
                if (current == null) {
                    if (!readHeader(ctx, in)) {
                        return;
                    }
                } else {
                    int n = Math.min(body.writableBytes(), in.readableBytes());
                    body.writeBytes(in, n);
                    if (!body.isWritable()) {
                        ByteBuf b = body;
                        body = null;
                        emit(ctx, b);
                    }
                }
            }
        } finally {
            ReferenceCountUtil.release(in);
        }
    }

    /** @return false when the header is still incomplete (or was malformed) */
    private boolean readHeader(ChannelHandlerContext ctx, ByteBuf in) {
        ByteBuf h;
        if (!header.isReadable() && in.readableBytes() >= FrameFormat.HEADER_BYTES) {
            h = in; // the usual case: parse in place
        } else {
            header.writeBytes(in, Math.min(header.writableBytes(), in.readableBytes()));
            if (header.isWritable()) {
                return false;
            }
            h = header;
        }
        int at = h.readerIndex();
        String bad = check(h, at);
        if (bad != null) {
            failure = bad;
            in.skipBytes(in.readableBytes());
            LOG.warn("closing connection {}: malformed frame: {}", ctx.channel().remoteAddress(), bad);
            ctx.close();
            return false;
        }
        Packet p = pool.acquire();
        p.kind = FrameFormat.kind(h.getByte(at + 5));
        p.source = h.getInt(at + 8);
        p.target = h.getInt(at + 12);
        p.matchBits = h.getLong(at + 16);
        p.sendId = h.getLong(at + 24);
        p.recvId = h.getLong(at + 32);
        p.offset = h.getLong(at + 40);
        p.messageLength = h.getLong(at + 48);
        p.signatureHash = h.getLong(at + 56);
        p.signatureElements = h.getLong(at + 64);
        int payload = h.getInt(at + FrameFormat.PAYLOAD_LENGTH_AT);
        h.skipBytes(FrameFormat.HEADER_BYTES);
        header.clear();
        current = p;
        if (payload == 0) {
            emit(ctx, null);
        } else if (in.readableBytes() >= payload) {
            emit(ctx, in.readRetainedSlice(payload));
        } else {
            body = ctx.alloc().directBuffer(payload, payload);
        }
        return true;
    }

    private void emit(ChannelHandlerContext ctx, ByteBuf payload) {
        Packet p = current;
        current = null;
        if (payload != null) {
            int at = payload.readerIndex();
            int length = payload.readableBytes();
            p.owner = payload;
            p.payload = DirectMemory.segment(payload, at, length);
            p.payloadOffset = DirectMemory.offset(p.payload, payload, at);
            p.payloadLength = length;
        }
        ctx.fireChannelRead(p);
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
