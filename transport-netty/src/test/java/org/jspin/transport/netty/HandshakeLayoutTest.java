package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;

import org.junit.jupiter.api.Test;

/**
 * The handshake's wire layout, named once in {@link Handshake}: each message's fields end to end,
 * and the bytes both sides write found at those offsets.
 */
class HandshakeLayoutTest {
    private static final String JOB = "job-layout";
    private static final String SECRET = "fedcba9876543210fedcba9876543210";

    /** Accepts rank 1 only; records nothing (the layout is what is tested). */
    private static final class Quiet implements Handshake.Outcome {
        @Override
        public void accepted(ChannelHandlerContext ctx, int peerRank) {
        }

        @Override
        public String admissible(int peerRank) {
            return peerRank == 1 ? null : "rank " + peerRank + " is not expected";
        }

        @Override
        public void failed(String reason) {
        }
    }

    private static void endToEnd(int end, int[]... fields) {
        int at = 0;
        for (int[] f : fields) { // start, width
            assertEquals(at, f[0]);
            at += f[1];
        }
        assertEquals(end, at);
    }

    @Test
    void everyMessagesFieldsLieEndToEnd() {
        int[] magic = {Handshake.MAGIC_AT, 4};
        int[] version = {Handshake.VERSION_AT, 1};
        endToEnd(Handshake.PREAMBLE_BYTES, magic, version);
        endToEnd(Handshake.HELLO_JOB_AT, magic, version, new int[] {Handshake.HELLO_RANK_AT, 4},
                new int[] {Handshake.HELLO_JOB_LENGTH_AT, 2});
        endToEnd(Handshake.CHALLENGE_BYTES, magic, version, new int[] {Handshake.CHALLENGE_RANK_AT, 4},
                new int[] {Handshake.CHALLENGE_NONCE_AT, Handshake.NONCE},
                new int[] {Handshake.CHALLENGE_PROOF_AT, Handshake.PROOF_BYTES});
        endToEnd(Handshake.PROOF_MESSAGE_BYTES, magic, version, new int[] {Handshake.PROOF_AT, Handshake.PROOF_BYTES});
        endToEnd(Handshake.WELCOME_BYTES, magic, version, new int[] {Handshake.WELCOME_RANK_AT, 4});
        endToEnd(Handshake.REASON_AT, magic, version, new int[] {Handshake.REASON_LENGTH_AT, 2});
        assertEquals(32, Handshake.NONCE, "version 2's nonce and proof widths do not move");
        assertEquals(32, Handshake.PROOF_BYTES);
    }

    @Test
    void whatBothSidesWriteSitsAtTheNamedOffsets() {
        EmbeddedChannel connecting = new EmbeddedChannel(Handshake.connecting(1, 0, JOB, SECRET, 10_000, new Quiet()));
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, new Quiet()));
        byte[] job = JOB.getBytes(StandardCharsets.UTF_8);

        ByteBuf hello = connecting.readOutbound();
        assertEquals(Handshake.HELLO, hello.getInt(Handshake.MAGIC_AT));
        assertEquals(Handshake.VERSION, hello.getByte(Handshake.VERSION_AT));
        assertEquals(1, hello.getInt(Handshake.HELLO_RANK_AT));
        assertEquals(job.length, hello.getUnsignedShort(Handshake.HELLO_JOB_LENGTH_AT));
        assertEquals(JOB, hello.toString(Handshake.HELLO_JOB_AT, job.length, StandardCharsets.UTF_8));
        assertEquals(Handshake.HELLO_JOB_AT + job.length + Handshake.NONCE, hello.readableBytes());
        byte[] helloNonce = new byte[Handshake.NONCE];
        hello.getBytes(Handshake.HELLO_JOB_AT + job.length, helloNonce);
        accepting.writeInbound(hello);

        ByteBuf challenge = accepting.readOutbound();
        assertEquals(Handshake.CHALLENGE, challenge.getInt(Handshake.MAGIC_AT));
        assertEquals(0, challenge.getInt(Handshake.CHALLENGE_RANK_AT));
        assertEquals(Handshake.CHALLENGE_BYTES, challenge.readableBytes());
        byte[] challengeNonce = new byte[Handshake.NONCE];
        byte[] acceptProof = new byte[Handshake.PROOF_BYTES];
        challenge.getBytes(Handshake.CHALLENGE_NONCE_AT, challengeNonce);
        challenge.getBytes(Handshake.CHALLENGE_PROOF_AT, acceptProof);
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(Handshake.proof(secret, true, JOB, 1, 0, helloNonce, challengeNonce), acceptProof);
        connecting.writeInbound(challenge);

        ByteBuf proof = connecting.readOutbound();
        assertEquals(Handshake.PROOF, proof.getInt(Handshake.MAGIC_AT));
        assertEquals(Handshake.PROOF_MESSAGE_BYTES, proof.readableBytes());
        byte[] connectProof = new byte[Handshake.PROOF_BYTES];
        proof.getBytes(Handshake.PROOF_AT, connectProof);
        assertArrayEquals(Handshake.proof(secret, false, JOB, 1, 0, helloNonce, challengeNonce), connectProof);
        accepting.writeInbound(proof);

        ByteBuf welcome = accepting.readOutbound();
        assertEquals(Handshake.WELCOME, welcome.getInt(Handshake.MAGIC_AT));
        assertEquals(0, welcome.getInt(Handshake.WELCOME_RANK_AT));
        assertEquals(Handshake.WELCOME_BYTES, welcome.readableBytes());
        welcome.release();
        connecting.finishAndReleaseAll();
        accepting.finishAndReleaseAll();
    }

    @Test
    void aRefusalCarriesItsReasonAfterItsLength() {
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, new Quiet()));
        ByteBuf notHello = accepting.alloc().buffer().writeInt(0x01020304).writeByte(Handshake.VERSION);
        accepting.writeInbound(notHello);
        ByteBuf refusal = accepting.readOutbound();
        assertEquals(Handshake.REFUSED, refusal.getInt(Handshake.MAGIC_AT));
        int length = refusal.getUnsignedShort(Handshake.REASON_LENGTH_AT);
        assertEquals(Handshake.REASON_AT + length, refusal.readableBytes());
        String reason = refusal.toString(Handshake.REASON_AT, length, StandardCharsets.UTF_8);
        assertEquals("not a jspin hello (0x1020304)", reason);
        refusal.release();
        accepting.finishAndReleaseAll();
    }
}
