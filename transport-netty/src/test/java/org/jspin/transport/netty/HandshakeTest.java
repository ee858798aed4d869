package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;

import org.junit.jupiter.api.Test;

/**
 * The challenge-response handshake on {@link EmbeddedChannel}s: both sides prove the secret without
 * sending it, a recorded handshake cannot be replayed, a wrong secret on either side is caught, and
 * the old version that sent the secret is refused.
 */
class HandshakeTest {
    private static final String JOB = "job-7";
    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    /** What one side's handshake reported. */
    private static final class Seen implements Handshake.Outcome {
        int accepted = -1;
        String failed;

        @Override
        public void accepted(ChannelHandlerContext ctx, int peerRank) {
            accepted = peerRank;
        }

        @Override
        public String admissible(int peerRank) {
            return peerRank == 1 ? null : "rank " + peerRank + " is not expected";
        }

        @Override
        public void failed(String reason) {
            failed = reason;
        }
    }

    /** Moves whatever {@code from} wrote to {@code to}, recording it; @return whether anything moved. */
    private static boolean shuttle(EmbeddedChannel from, EmbeddedChannel to, List<byte[]> record) {
        boolean moved = false;
        ByteBuf b;
        while ((b = from.readOutbound()) != null) {
            record.add(ByteBufUtil.getBytes(b));
            if (to.isOpen()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
            moved = true;
        }
        return moved;
    }

    /** Runs a handshake between rank 1 (connecting, {@code connectSecret}) and rank 0 (accepting, {@code acceptSecret}). */
    private static List<byte[]> run(String connectSecret, String acceptSecret, Seen c, Seen a) {
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, acceptSecret, 10_000, a));
        EmbeddedChannel connecting = new EmbeddedChannel(Handshake.connecting(1, 0, JOB, connectSecret, 10_000, c));
        List<byte[]> wire = new ArrayList<>();
        List<byte[]> back = new ArrayList<>();
        while (shuttle(connecting, accepting, wire) | shuttle(accepting, connecting, back)) {
            // until neither side has anything more to say
        }
        wire.addAll(back);
        return wire;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void bothSidesProveTheSecretWithoutItEverCrossingTheWire() {
        Seen c = new Seen();
        Seen a = new Seen();
        List<byte[]> wire = run(SECRET, SECRET, c, a);
        assertEquals(0, c.accepted, "the connecting rank reached rank 0: " + c.failed);
        assertEquals(1, a.accepted, "the accepting rank took rank 1");
        assertEquals(4, wire.size(), "hello, challenge, proof, welcome");
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        for (byte[] w : wire) {
            assertFalse(contains(w, secret), "the secret crossed the wire");
            assertFalse(contains(w, java.util.Arrays.copyOf(secret, 8)), "part of the secret crossed the wire");
        }
    }

    @Test
    void aRecordedHandshakeReplayedLaterIsRefused() {
        Seen c = new Seen();
        Seen a = new Seen();
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, a));
        EmbeddedChannel connecting = new EmbeddedChannel(Handshake.connecting(1, 0, JOB, SECRET, 10_000, c));
        List<byte[]> sent = new ArrayList<>(); // what an eavesdropper captures from rank 1
        List<byte[]> answered = new ArrayList<>();
        while (shuttle(connecting, accepting, sent) | shuttle(accepting, connecting, answered)) {
            // the genuine handshake
        }
        assertEquals(1, a.accepted);
        assertEquals(2, sent.size(), "hello and proof");

        Seen replayed = new Seen();
        EmbeddedChannel victim = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, replayed));
        for (byte[] b : sent) {
            victim.writeInbound(Unpooled.wrappedBuffer(b));
        }
        assertEquals(-1, replayed.accepted, "a replayed proof answers an old challenge");
        ByteBuf challenge = victim.readOutbound();
        assertEquals(Handshake.CHALLENGE, challenge.getInt(0));
        challenge.release();
        ByteBuf refusal = victim.readOutbound();
        assertNotNull(refusal, "refused");
        assertEquals(Handshake.REFUSED, refusal.getInt(0));
        String reason = refusal.toString(7, refusal.getUnsignedShort(5), StandardCharsets.UTF_8);
        assertTrue(reason.contains("wrong job secret"), reason);
        refusal.release();
    }

    @Test
    void aConnectingRankWithAnotherSecretIsToldAndTheAcceptingRankTakesNothing() {
        Seen c = new Seen();
        Seen a = new Seen();
        run("ffffffffffffffffffffffffffffffff", SECRET, c, a);
        assertEquals(-1, c.accepted);
        assertEquals(-1, a.accepted);
        assertNotNull(c.failed);
        assertTrue(c.failed.contains("wrong job secret"), c.failed);
    }

    @Test
    void anAcceptingRankThatCannotProveTheSecretIsLeftBeforeTheConnectingRankProvesAnything() {
        Seen c = new Seen();
        Seen a = new Seen();
        List<byte[]> wire = run(SECRET, "ffffffffffffffffffffffffffffffff", c, a);
        assertEquals(-1, c.accepted, "an impostor listening on rank 0's port is not trusted");
        assertTrue(c.failed.contains("rank 0 at that endpoint proved another job secret"), c.failed);
        assertEquals(2, wire.size(), "hello and challenge only: the connecting rank sent no proof");
    }

    @Test
    void aProofMadeWithAWrongSecretIsRefusedByTheAcceptingRank() {
        Seen a = new Seen();
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, a));
        byte[] nonce = new byte[Handshake.NONCE];
        byte[] job = JOB.getBytes(StandardCharsets.UTF_8);
        accepting.writeInbound(Unpooled.buffer().writeInt(Handshake.HELLO).writeByte(Handshake.VERSION).writeInt(1)
                .writeShort(job.length).writeBytes(job).writeBytes(nonce));
        ByteBuf challenge = accepting.readOutbound();
        byte[] theirNonce = new byte[Handshake.NONCE];
        challenge.getBytes(9, theirNonce);
        challenge.release();
        byte[] forged = Handshake.proof("not the secret at all, no no no".getBytes(StandardCharsets.UTF_8), false, JOB,
                1, 0, nonce, theirNonce);
        accepting.writeInbound(Unpooled.buffer().writeInt(Handshake.PROOF).writeByte(Handshake.VERSION).writeBytes(forged));
        assertEquals(-1, a.accepted);
        ByteBuf refusal = accepting.readOutbound();
        assertEquals(Handshake.REFUSED, refusal.getInt(0));
        assertTrue(refusal.toString(StandardCharsets.UTF_8).contains("wrong job secret from a process claiming rank 1"));
        refusal.release();
        assertFalse(accepting.isOpen(), "closed after the refusal");
    }

    @Test
    void theOldHelloThatCarriedTheSecretIsRefused() {
        Seen a = new Seen();
        EmbeddedChannel accepting = new EmbeddedChannel(Handshake.accepting(0, JOB, SECRET, 10_000, a));
        byte[] job = JOB.getBytes(StandardCharsets.UTF_8);
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        accepting.writeInbound(Unpooled.buffer().writeInt(Handshake.HELLO).writeByte(1).writeInt(1)
                .writeShort(job.length).writeBytes(job).writeShort(secret.length).writeBytes(secret));
        assertEquals(-1, a.accepted);
        ByteBuf refusal = accepting.readOutbound();
        assertEquals(Handshake.REFUSED, refusal.getInt(0));
        assertTrue(refusal.toString(StandardCharsets.UTF_8).contains("unsupported handshake version 1"));
        refusal.release();
        assertNull(accepting.readOutbound());
    }
}
