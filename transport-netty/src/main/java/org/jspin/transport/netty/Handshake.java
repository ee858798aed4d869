package org.jspin.transport.netty;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import org.jspin.bootstrap.SecretProof;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first bytes on every connection, before any packet: the two ranks prove to each other that
 * they hold the job secret without sending it, by challenge and response, and the accepting rank
 * answers welcome or refused.
 *
 * <pre>
 * hello     "JSPH" version(1) rank(int) jobIdLength(short) jobId(UTF-8) nonce(32)      connecting side
 * challenge "JSPC" version(1) rank(int) nonce(32) proof(32)                             accepting side
 * proof     "JSPP" version(1) proof(32)                                                 connecting side
 * welcome   "JSPW" version(1) rank(int)                                                 accepting side
 * refused   "JSPR" version(1) reasonLength(short) reason(UTF-8)                         either side
 * </pre>
 *
 * A proof is an HMAC-SHA256 keyed with the secret over a label naming the side, the job id, both
 * ranks and both sides' fresh random nonces ({@link #proof}). The secret never crosses the wire;
 * a recorded handshake cannot be replayed, since the other side's nonce differs next time; one
 * side's proof cannot be reflected back as the other's, since the labels differ; and the
 * connecting rank learns that it reached a rank of its own job, not an impostor listening on that
 * port. Proofs are compared in constant time. A connection that fails the handshake, or does not
 * finish it within the timeout, is closed with a logged reason and never reaches the fabric, so
 * another process cannot inject packets. Ranks connect to lower ranks only, so each pair has
 * exactly one connection.
 */
final class Handshake extends ByteToMessageDecoder {
    static final int HELLO = 0x4A535048; // "JSPH"
    static final int CHALLENGE = 0x4A535043; // "JSPC"
    static final int PROOF = 0x4A535050; // "JSPP"
    static final int WELCOME = 0x4A535057; // "JSPW"
    static final int REFUSED = 0x4A535052; // "JSPR"
    /** Version 2: challenge and response (version 1 sent the secret itself). */
    static final byte VERSION = 2;
    /** Longest job id or reason accepted; checked before waiting for that many bytes. */
    static final int MAX_STRING = 512;
    /** Bytes of each side's nonce, and of a proof (HMAC-SHA256). */
    static final int NONCE = SecretProof.BYTES;
    static final int PROOF_BYTES = SecretProof.BYTES;

    // Where each field starts in its message: the table above, once. Every message opens with magic and version.
    static final int MAGIC_AT = 0;
    static final int VERSION_AT = 4;
    /** Bytes of magic and version, which say which message follows. */
    static final int PREAMBLE_BYTES = 5;
    static final int HELLO_RANK_AT = 5;
    static final int HELLO_JOB_LENGTH_AT = 9;
    static final int HELLO_JOB_AT = 11;
    static final int CHALLENGE_RANK_AT = 5;
    static final int CHALLENGE_NONCE_AT = 9;
    static final int CHALLENGE_PROOF_AT = 41;
    static final int CHALLENGE_BYTES = 73;
    static final int PROOF_AT = 5;
    static final int PROOF_MESSAGE_BYTES = 37;
    static final int WELCOME_RANK_AT = 5;
    static final int WELCOME_BYTES = 9;
    static final int REASON_LENGTH_AT = 5;
    static final int REASON_AT = 7;

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
    private final byte[] myNonce = SecretProof.nonce();
    /** Accepting side: the hello's rank and nonce, once read (then a proof is awaited). */
    private int helloRank = -1;
    private byte[] theirNonce;
    /** Connecting side: the challenge was answered (then a welcome or refusal is awaited). */
    private boolean proved;
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

    /** The side that connects: sends its hello at once and waits for the challenge of {@code peer}. */
    static Handshake connecting(int rank, int peer, String jobId, String secret, long timeoutMillis, Outcome outcome) {
        return new Handshake(true, rank, peer, jobId, secret, timeoutMillis, outcome);
    }

    /** The side that accepts: waits for a hello, challenges it and checks the proof. */
    static Handshake accepting(int rank, String jobId, String secret, long timeoutMillis, Outcome outcome) {
        return new Handshake(false, rank, -1, jobId, secret, timeoutMillis, outcome);
    }

    /**
     * The proof one side sends ({@link SecretProof}): over the side's label ({@code accepting}:
     * "jspin accept", else "jspin connect"), the job id, the connecting and the accepting rank, and
     * the connecting and the accepting side's nonces.
     */
    static byte[] proof(byte[] secret, boolean accepting, String jobId, int connectingRank, int acceptingRank,
                        byte[] connectingNonce, byte[] acceptingNonce) {
        return SecretProof.of(secret, accepting ? "jspin accept" : "jspin connect", SecretProof.utf8(jobId),
                SecretProof.int32(connectingRank), SecretProof.int32(acceptingRank), connectingNonce, acceptingNonce);
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
        ByteBuf b = ctx.alloc().buffer(HELLO_JOB_AT + job.length + NONCE);
        b.writeInt(HELLO).writeByte(VERSION).writeInt(rank);
        b.writeShort(job.length).writeBytes(job);
        b.writeBytes(myNonce);
        return b;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done || in.readableBytes() < PREAMBLE_BYTES) {
            return;
        }
        int at = in.readerIndex();
        int magic = in.getInt(at + MAGIC_AT);
        byte version = in.getByte(at + VERSION_AT);
        if (!connecting && helloRank < 0 && magic != HELLO) {
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
            answer(ctx, in, at, magic);
        } else if (helloRank < 0) {
            challenge(ctx, in, at);
        } else {
            check(ctx, in, at, magic);
        }
    }

    /** Connecting side: a challenge (answered with a proof), then a welcome or a refusal. */
    private void answer(ChannelHandlerContext ctx, ByteBuf in, int at, int magic) {
        if (magic == CHALLENGE && !proved) {
            if (in.readableBytes() < CHALLENGE_BYTES) {
                return;
            }
            int peer = in.getInt(at + CHALLENGE_RANK_AT);
            byte[] nonce = new byte[NONCE];
            byte[] theirProof = new byte[PROOF_BYTES];
            in.getBytes(at + CHALLENGE_NONCE_AT, nonce);
            in.getBytes(at + CHALLENGE_PROOF_AT, theirProof);
            in.skipBytes(CHALLENGE_BYTES);
            if (peer != expectedPeer) {
                fail(ctx, "expected rank " + expectedPeer + " at that endpoint, found rank " + peer);
                return;
            }
            if (!SecretProof.matches(proof(secret, true, jobId, rank, peer, myNonce, nonce), theirProof)) {
                fail(ctx, "rank " + peer + " at that endpoint proved another job secret than this rank's (wrong job secret"
                        + " on one side)");
                return;
            }
            proved = true;
            byte[] mine = proof(secret, false, jobId, rank, peer, myNonce, nonce);
            ctx.writeAndFlush(ctx.alloc().buffer(PROOF_MESSAGE_BYTES).writeInt(PROOF).writeByte(VERSION)
                    .writeBytes(mine));
        } else if (magic == WELCOME && proved) {
            if (in.readableBytes() < WELCOME_BYTES) {
                return;
            }
            int peer = in.getInt(at + WELCOME_RANK_AT);
            in.skipBytes(WELCOME_BYTES);
            succeed(ctx, peer);
        } else if (magic == REFUSED) {
            String reason = string(in, at + REASON_LENGTH_AT);
            if (reason != null) {
                fail(ctx, "rank " + expectedPeer + " refused the connection: " + reason);
            }
        } else {
            fail(ctx, "not a jspin handshake answer (0x" + Integer.toHexString(magic) + ")");
        }
    }

    /** Accepting side: a hello, answered with this side's nonce and proof. */
    private void challenge(ChannelHandlerContext ctx, ByteBuf in, int at) {
        if (in.readableBytes() < HELLO_JOB_AT) {
            return;
        }
        int peer = in.getInt(at + HELLO_RANK_AT);
        int jobLength = in.getUnsignedShort(at + HELLO_JOB_LENGTH_AT);
        if (jobLength > MAX_STRING) {
            refuse(ctx, "job id of " + jobLength + " bytes is longer than " + MAX_STRING);
            return;
        }
        if (in.readableBytes() < HELLO_JOB_AT + jobLength + NONCE) {
            return;
        }
        String job = in.toString(at + HELLO_JOB_AT, jobLength, StandardCharsets.UTF_8);
        byte[] nonce = new byte[NONCE];
        in.getBytes(at + HELLO_JOB_AT + jobLength, nonce);
        in.skipBytes(HELLO_JOB_AT + jobLength + NONCE);
        if (!job.equals(jobId)) {
            refuse(ctx, "job '" + job + "' is not this job ('" + jobId + "')");
            return;
        }
        helloRank = peer;
        theirNonce = nonce;
        byte[] mine = proof(secret, true, jobId, peer, rank, nonce, myNonce);
        ctx.writeAndFlush(ctx.alloc().buffer(CHALLENGE_BYTES).writeInt(CHALLENGE).writeByte(VERSION)
                .writeInt(rank).writeBytes(myNonce).writeBytes(mine));
    }

    /** Accepting side: the connecting side's proof, then welcome or refused. */
    private void check(ChannelHandlerContext ctx, ByteBuf in, int at, int magic) {
        if (magic != PROOF) {
            refuse(ctx, "expected a proof, got 0x" + Integer.toHexString(magic));
            return;
        }
        if (in.readableBytes() < PROOF_MESSAGE_BYTES) {
            return;
        }
        byte[] theirs = new byte[PROOF_BYTES];
        in.getBytes(at + PROOF_AT, theirs);
        in.skipBytes(PROOF_MESSAGE_BYTES);
        if (!SecretProof.matches(proof(secret, false, jobId, helloRank, rank, theirNonce, myNonce), theirs)) {
            refuse(ctx, "wrong job secret from a process claiming rank " + helloRank);
            return;
        }
        String why = outcome.admissible(helloRank);
        if (why != null) {
            refuse(ctx, why);
            return;
        }
        ByteBuf w = ctx.alloc().buffer(WELCOME_BYTES).writeInt(WELCOME).writeByte(VERSION).writeInt(rank);
        ctx.writeAndFlush(w);
        succeed(ctx, helloRank);
    }

    /** @return the length-prefixed string at {@code at}, or null while it is incomplete */
    private static String string(ByteBuf in, int at) {
        if (in.writerIndex() < at + Short.BYTES) {
            return null;
        }
        int length = Math.min(in.getUnsignedShort(at), MAX_STRING);
        if (in.writerIndex() < at + Short.BYTES + length) {
            return null;
        }
        String s = in.toString(at + Short.BYTES, length, StandardCharsets.UTF_8);
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
        ByteBuf b = ctx.alloc().buffer(REASON_AT + n).writeInt(REFUSED).writeByte(VERSION).writeShort(n).writeBytes(r, 0, n);
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
