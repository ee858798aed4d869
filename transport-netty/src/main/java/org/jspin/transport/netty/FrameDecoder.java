package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import jdk.jfr.EventType;

import org.jspin.nic.events.PayloadReceivedEvent;
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
 * whole is sliced out of the read buffer, and one that did not goes into a buffer of exactly its
 * size: what was read already is copied there, and the rest is read from the socket straight into
 * it ({@link LandingReads}), in reads as large as the rest rather than the adaptive guess (a 64 KiB
 * payload behind small frames took a dozen reads and a copy).
 *
 * <p>A payload can also land: if the {@link Lander} gives it a place (a DATA chunk of a contiguous
 * receive, say), the bytes already read are copied there and the rest is read from the socket
 * straight into it ({@link LandingReads}); the packet then comes out {@link Packet#placed} with
 * its payload window on that memory.
 *
 * <p>Each payload made whole is a {@link PayloadReceivedEvent} when a flight recording enables it;
 * otherwise the decoder does not even read the clock.
 */
final class FrameDecoder extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);
    /** Whether a recording wants {@link PayloadReceivedEvent}s (checked per header: the clock is read only then). */
    private static final EventType PAYLOAD_EVENTS = EventType.getEventType(PayloadReceivedEvent.class);

    /** Where a payload may be written directly, decided when its header has been read. */
    interface Lander {
        /**
         * @return memory of exactly {@code header.payloadLength} bytes for the payload, or null to
         *         keep it in a read buffer; it must stay valid until the packet is delivered (or the
         *         decoder is {@linkplain #stopLanding stopped})
         */
        MemorySegment land(Packet header);
    }

    private final int maxPayload;
    private final PacketPool pool;
    private final Lander lander;
    private final LandingReads reads;
    /** The landing payload's memory and how much of it has arrived (null: not landing). */
    private MemorySegment landing;
    private long landed;
    /** The buffer of exactly the payload's size that {@link #landing} lies in, or null if it is the engine's memory. */
    private ByteBuf landingBody;
    /**
     * The buffer the socket reads of the landing payload go into ({@link LandingReads}): the body,
     * or a view of the engine's memory made once per payload, so that a read allocates nothing.
     * This decoder holds one reference to it; null when not landing or without landing reads.
     */
    private ByteBuf landingView;
    private boolean discarding;
    /** When the current payload's header was read, if payload events are being recorded (else 0). */
    private long headerNanos;
    private ByteBuf header;
    private Packet current;
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
        this(maxPayload, pool, null, null);
    }

    /**
     * @param maxPayload the largest payload a frame may declare
     * @param pool       where packets come from
     * @param lander     where payloads may land (null: never)
     * @param reads      the channel's read buffers, told where to read while a payload lands (null:
     *                   landing payloads are copied from read buffers into place)
     */
    FrameDecoder(int maxPayload, PacketPool pool, Lander lander, LandingReads reads) {
        this.maxPayload = maxPayload;
        this.pool = pool;
        this.lander = lander;
        this.reads = reads;
    }

    /**
     * Writes nothing more into landing memory: the connection is closing and the receives that
     * memory belongs to may already have ended. Whatever else arrives is dropped. On the channel's
     * event loop.
     */
    void stopLanding() {
        discarding = true;
        landing = null;
        releaseBody();
        if (reads != null) {
            reads.stop();
        }
    }

    private void releaseBody() {
        releaseView();
        if (landingBody != null) {
            landingBody.release();
            landingBody = null;
        }
    }

    /** Drops this decoder's reference to a view of the engine's memory (the body's is the body's own). */
    private void releaseView() {
        if (landingView != null && landingView != landingBody) {
            landingView.release(); // a view: frees nothing of the engine's
        }
        landingView = null;
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
        releaseBody();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (discarding) {
                return;
            }
            if (reads != null && reads.isWindow(in)) {
                landedInPlace(ctx, in.readableBytes()); // read straight into the landing memory
                return;
            }
            while (failure == null && in.isReadable()) {
                if (landing != null) {
                    int n = (int) Math.min(landing.byteSize() - landed, in.readableBytes());
                    copy(in, landing, landed, n);
                    landedInPlace(ctx, n);
                } else if (!readHeader(ctx, in)) {
                    return;
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
        p.kind = FrameFormat.kind(h.getByte(at + FrameFormat.KIND_AT));
        p.source = h.getInt(at + FrameFormat.SOURCE_AT);
        p.target = h.getInt(at + FrameFormat.TARGET_AT);
        p.matchBits = h.getLong(at + FrameFormat.MATCH_BITS_AT);
        p.sendId = h.getLong(at + FrameFormat.SEND_ID_AT);
        p.recvId = h.getLong(at + FrameFormat.RECV_ID_AT);
        p.offset = h.getLong(at + FrameFormat.OFFSET_AT);
        p.messageLength = h.getLong(at + FrameFormat.MESSAGE_LENGTH_AT);
        p.signatureHash = h.getLong(at + FrameFormat.SIGNATURE_HASH_AT);
        p.signatureElements = h.getLong(at + FrameFormat.SIGNATURE_ELEMENTS_AT);
        int payload = h.getInt(at + FrameFormat.PAYLOAD_LENGTH_AT);
        h.skipBytes(FrameFormat.HEADER_BYTES);
        header.clear();
        current = p;
        p.payloadLength = payload;
        headerNanos = payload > 0 && PAYLOAD_EVENTS.isEnabled() ? System.nanoTime() : 0;
        MemorySegment place = payload > 0 && lander != null ? lander.land(p) : null;
        if (place != null && place.byteSize() != payload) {
            throw new IllegalStateException("landing of " + place.byteSize() + " bytes for a payload of " + payload);
        }
        if (place == null && payload > 0 && in.readableBytes() < payload) {
            landingBody = ctx.alloc().directBuffer(payload, payload);
            MemorySegment all = DirectMemory.segment(landingBody, 0, payload);
            place = all.asSlice(DirectMemory.offset(all, landingBody, 0), payload);
            landingView = reads != null ? landingBody : null;
        } else if (place != null && reads != null && in.readableBytes() < payload) {
            // wraps without owning: releasing it frees nothing of the engine's
            landingView = Unpooled.wrappedBuffer(place.asByteBuffer());
        }
        if (place != null) {
            landing = place;
            landed = 0;
            int n = Math.min(payload, in.readableBytes());
            copy(in, place, 0, n);
            landedInPlace(ctx, n);
        } else if (payload == 0) {
            emit(ctx, null);
        } else {
            emit(ctx, in.readRetainedSlice(payload));
        }
        return true;
    }

    /** Copies {@code n} readable bytes of {@code in} to {@code to} at {@code at}, consuming them. */
    private static void copy(ByteBuf in, MemorySegment to, long at, int n) {
        if (n == 0) {
            return;
        }
        int from = in.readerIndex();
        MemorySegment src = DirectMemory.segment(in, from, n);
        MemorySegment.copy(src, DirectMemory.offset(src, in, from), to, at, n);
        in.skipBytes(n);
    }

    /** {@code n} more bytes of the landing payload are in place; emits it when it is whole. */
    private void landedInPlace(ChannelHandlerContext ctx, long n) {
        landed += n;
        MemorySegment place = landing;
        if (landed < place.byteSize()) {
            if (reads != null) {
                reads.land(landingView, landed);
            }
            return;
        }
        landing = null;
        if (reads != null) {
            reads.stop();
        }
        releaseView();
        if (landingBody != null) {
            ByteBuf b = landingBody;
            landingBody = null;
            b.setIndex(0, (int) place.byteSize());
            emit(ctx, b); // a read buffer of its own, as if it had arrived whole
            return;
        }
        Packet p = current;
        current = null;
        p.placed = true;
        p.payload = place;
        p.payloadOffset = 0;
        received(p, true);
        ctx.fireChannelRead(p);
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
            received(p, false);
        }
        ctx.fireChannelRead(p);
    }

    /** A flight-recorder event for a payload now whole, if a recording wants it. */
    private void received(Packet p, boolean landed) {
        if (headerNanos == 0) {
            return;
        }
        PayloadReceivedEvent event = new PayloadReceivedEvent();
        if (event.shouldCommit()) {
            event.source = p.source;
            event.target = p.target;
            event.kind = p.kind.name();
            event.offset = p.offset;
            event.payload = p.payloadLength;
            event.landed = landed;
            event.sinceHeader = System.nanoTime() - headerNanos;
            event.clock = headerNanos;
            event.commit();
        }
        headerNanos = 0;
    }

    /** @return what is wrong with the header at {@code at}, or null if it is well-formed */
    private String check(ByteBuf in, int at) {
        int magic = in.getInt(at + FrameFormat.MAGIC_AT);
        if (magic != FrameFormat.MAGIC) {
            return "bad magic 0x" + Integer.toHexString(magic) + " (expected 0x" + Integer.toHexString(FrameFormat.MAGIC) + ")";
        }
        byte version = in.getByte(at + FrameFormat.VERSION_AT);
        if (version != FrameFormat.VERSION) {
            return "unsupported protocol version " + version + " (this side speaks " + FrameFormat.VERSION + ")";
        }
        byte kind = in.getByte(at + FrameFormat.KIND_AT);
        if (FrameFormat.kind(kind) == null) {
            return "unknown packet kind " + kind;
        }
        short flags = in.getShort(at + FrameFormat.FLAGS_AT);
        if (flags != 0) {
            return "unknown flags 0x" + Integer.toHexString(flags & 0xffff);
        }
        int source = in.getInt(at + FrameFormat.SOURCE_AT);
        int target = in.getInt(at + FrameFormat.TARGET_AT);
        if (source < 0 || target < 0) {
            return "negative rank (source " + source + ", target " + target + ")";
        }
        long offset = in.getLong(at + FrameFormat.OFFSET_AT);
        long length = in.getLong(at + FrameFormat.MESSAGE_LENGTH_AT);
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
