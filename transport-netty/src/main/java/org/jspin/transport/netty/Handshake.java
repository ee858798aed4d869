package org.jspin.transport.netty;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first bytes on every connection, before any packet: the connecting rank says who it is and
 * proves it belongs to the job; the accepting rank answers welcome or refused.
 *
 * <pre>
 * hello   "JSPH" version(1) rank(int) jobIdLength(short) jobId(UTF-8) secretLength(short) secret(UTF-8)
 * welcome "JSPW" version(1) rank(int)
 * refused "JSPR" version(1) reasonLength(short) reason(UTF-8)
 * </pre>
 *
 * The secret is compared in constant time. A connection that fails the handshake, or does not
 * finish it within the timeout, is closed with a logged reason and never reaches the fabric, so
 * another local user's process cannot inject packets. Ranks connect to lower ranks only, so each
 * pair has exactly one connection.
 */
final class Handshake extends ByteToMessageDecoder {
    static final int HELLO = 0x4A535048; // "JSPH"
    static final int WELCOME = 0x4A535057; // "JSPW"
    static final int REFUSED = 0x4A535052; // "JSPR"
    static final byte VERSION = 1;
    /** Longest job id, secret or reason accepted; checked before waiting for that many bytes. */
    static final int MAX_STRING = 512;

    private static final Logger LOG = LoggerFactory.getLogger(Handshake.class);

    /** What the handshake reports to. */
    interface Outcome {
        /** The peer proved itself: the connection now carries packets of {@code peerRank}. */
        void accepted(ChannelHandlerContext ctx, int peerRank);

        /**
         * A hello from {@code peerRank} passed the secret check: may this rank take it? (It may not if
         * that rank is out of range, not above this one, or already connected.)
         *
         * @return null if it may, else the reason why not
         */
        String admissible(int peerRank);

        /** The handshake failed (only reported on the connecting side, which waits for it). */
        void failed(String reason);
    }

    private final boolean connecting;
    private final int rank;
    private final int expectedPeer;
    private final String jobId;
    private final byte[] secret;
    private final long timeoutMillis;
    private final Outcome outcome;
    private ScheduledFuture<?> timeout;
    private boolean done;

    private Handshake(boolean connecting, int rank, int expectedPeer, String jobId, String secret, long timeoutMillis,
                      Outcome outcome) {
        this.connecting = connecting;
        this.rank = rank;
        this.expectedPeer = expectedPeer;
        this.jobId = jobId;
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.timeoutMillis = timeoutMillis;
        this.outcome = outcome;
    }

    /** The side that connects: sends its hello at once and waits for the answer of {@code peer}. */
    static Handshake connecting(int rank, int peer, String jobId, String secret, long timeoutMillis, Outcome outcome) {
        return new Handshake(true, rank, peer, jobId, secret, timeoutMillis, outcome);
    }

    /** The side that accepts: waits for a hello and checks it. */
    static Handshake accepting(int rank, String jobId, String secret, long timeoutMillis, Outcome outcome) {
        return new Handshake(false, rank, -1, jobId, secret, timeoutMillis, outcome);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        timeout = ctx.executor().schedule(() -> fail(ctx, "no handshake within " + timeoutMillis + " ms"),
                timeoutMillis, TimeUnit.MILLISECONDS);
        if (connecting) {
            ctx.writeAndFlush(hello(ctx));
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!done) {
            fail(ctx, "connection closed during the handshake");
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, "handshake failed: " + cause);
    }

    private ByteBuf hello(ChannelHandlerContext ctx) {
        byte[] job = jobId.getBytes(StandardCharsets.UTF_8);
        ByteBuf b = ctx.alloc().buffer(4 + 1 + 4 + 2 + job.length + 2 + secret.length);
        b.writeInt(HELLO).writeByte(VERSION).writeInt(rank);
        b.writeShort(job.length).writeBytes(job);
        b.writeShort(secret.length).writeBytes(secret);
        return b;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done || in.readableBytes() < 5) {
            return;
        }
        int at = in.readerIndex();
        int magic = in.getInt(at);
        byte version = in.getByte(at + 4);
        if (!connecting && magic != HELLO) {
            refuse(ctx, "not a jspin hello (0x" + Integer.toHexString(magic) + ")");
            return;
        }
        if (version != VERSION) {
            String why = "unsupported handshake version " + version + " (this side speaks " + VERSION + ")";
            if (connecting) {
                fail(ctx, why);
            } else {
                refuse(ctx, why);
            }
            return;
        }
        if (connecting) {
            if (magic == WELCOME) {
                if (in.readableBytes() < 9) {
                    return;
                }
                int peer = in.getInt(at + 5);
                in.skipBytes(9);
                if (peer != expectedPeer) {
                    fail(ctx, "expected rank " + expectedPeer + " at that endpoint, found rank " + peer);
                    return;
                }
                succeed(ctx, peer);
            } else if (magic == REFUSED) {
                String reason = string(in, at + 5);
                if (reason != null) {
                    fail(ctx, "rank " + expectedPeer + " refused the connection: " + reason);
                }
            } else {
                fail(ctx, "not a jspin handshake answer (0x" + Integer.toHexString(magic) + ")");
            }
            return;
        }
        if (in.readableBytes() < 11) {
            return;
        }
        int peer = in.getInt(at + 5);
        int jobLength = in.getUnsignedShort(at + 9);
        if (jobLength > MAX_STRING) {
            refuse(ctx, "job id of " + jobLength + " bytes is longer than " + MAX_STRING);
            return;
        }
        if (in.readableBytes() < 11 + jobLength + 2) {
            return;
        }
        int secretLength = in.getUnsignedShort(at + 11 + jobLength);
        if (secretLength > MAX_STRING) {
            refuse(ctx, "secret of " + secretLength + " bytes is longer than " + MAX_STRING);
            return;
        }
        if (in.readableBytes() < 13 + jobLength + secretLength) {
            return;
        }
        String job = in.toString(at + 11, jobLength, StandardCharsets.UTF_8);
        byte[] theirs = new byte[secretLength];
        in.getBytes(at + 13 + jobLength, theirs);
        in.skipBytes(13 + jobLength + secretLength);
        if (!MessageDigest.isEqual(secret, theirs)) {
            refuse(ctx, "wrong job secret from a process claiming rank " + peer);
            return;
        }
        if (!job.equals(jobId)) {
            refuse(ctx, "job '" + job + "' is not this job ('" + jobId + "')");
            return;
        }
        String why = outcome.admissible(peer);
        if (why != null) {
            refuse(ctx, why);
            return;
        }
        ByteBuf w = ctx.alloc().buffer(9).writeInt(WELCOME).writeByte(VERSION).writeInt(rank);
        ctx.writeAndFlush(w);
        succeed(ctx, peer);
    }

    /** @return the length-prefixed string at {@code at}, or null while it is incomplete */
    private static String string(ByteBuf in, int at) {
        if (in.writerIndex() < at + 2) {
            return null;
        }
        int length = Math.min(in.getUnsignedShort(at), MAX_STRING);
        if (in.writerIndex() < at + 2 + length) {
            return null;
        }
        String s = in.toString(at + 2, length, StandardCharsets.UTF_8);
        in.skipBytes(in.readableBytes());
        return s;
    }

    private void succeed(ChannelHandlerContext ctx, int peer) {
        done = true;
        timeout.cancel(false);
        outcome.accepted(ctx, peer); // installs the packet handlers behind this one
        ctx.pipeline().remove(this); // hands any bytes already read on to them
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (done) {
            return;
        }
        done = true;
        timeout.cancel(false);
        LOG.warn("rank {}: refused connection from {}: {}", rank, ctx.channel().remoteAddress(), reason);
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(r.length, MAX_STRING);
        ByteBuf b = ctx.alloc().buffer(7 + n).writeInt(REFUSED).writeByte(VERSION).writeShort(n).writeBytes(r, 0, n);
        ctx.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
        ctx.channel().config().setAutoRead(false);
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        if (done) {
            return;
        }
        done = true;
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (connecting) {
            outcome.failed(reason);
        } else {
            LOG.warn("rank {}: closing connection from {}: {}", rank, ctx.channel().remoteAddress(), reason);
        }
        ctx.close();
    }
}
