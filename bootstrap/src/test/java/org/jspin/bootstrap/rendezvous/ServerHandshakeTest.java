package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspin.bootstrap.SecretProof;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The server's half of the handshake against a hand-driven peer on a loopback connection. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ServerHandshakeTest {
    private static final String SECRET = "0123456789abcdef-secret";
    private static final ServerHandshake HANDSHAKE = new ServerHandshake(SECRET.getBytes(StandardCharsets.UTF_8), "job", 2);

    private static CompletableFuture<ServerHandshake.Outcome> serve(LoopbackPair pair) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return HANDSHAKE.run(new Wire.LineReader(pair.server), pair.server.getOutputStream());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Says hello as {@code rank} of {@code job}, checks the server's proof, and answers with a proof made with {@code secret}. */
    private static void rank(LoopbackPair pair, String job, int rank, String secret) throws IOException {
        byte[] nonce = SecretProof.nonce();
        pair.peerSends(String.join(" ", Wire.VERSION, Wire.HELLO, Wire.encode(job), Integer.toString(rank),
                SecretProof.hex(nonce), Wire.encode("h:" + rank)));
        String[] challenge = pair.peerIn.readLine().split(" ");
        assertEquals(Wire.CHALLENGE, challenge[1]);
        byte[] serverNonce = SecretProof.unhex(challenge[2]);
        byte[] key = SECRET.getBytes(StandardCharsets.UTF_8);
        assertTrue(SecretProof.matches(Wire.proof(key, true, job, rank, "h:" + rank, nonce, serverNonce),
                SecretProof.unhex(challenge[3])), "the server proves it holds the secret");
        pair.peerSends(Wire.VERSION + " " + Wire.PROOF + " " + SecretProof.hex(Wire.proof(
                secret.getBytes(StandardCharsets.UTF_8), false, job, rank, "h:" + rank, nonce, serverNonce)));
    }

    @Test
    void aRankWithTheSecretIsProven() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            rank(pair, "job", 1, SECRET);
            ServerHandshake.Proven p = assertInstanceOf(ServerHandshake.Proven.class, outcome.get(10, TimeUnit.SECONDS));
            assertEquals(1, p.hello().rank());
            assertEquals("h:1", p.hello().endpoint());
        }
    }

    @Test
    void aWrongSecretIsRefusedBeforeTheClaimsAreLookedAt() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            rank(pair, "another-job", 7, "not-the-job-secret!");
            assertEquals(new ServerHandshake.Refused("wrong secret"), outcome.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aProvenRankClaimingTooMuchIsRefused() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            rank(pair, "job", 2, SECRET);
            assertEquals(new ServerHandshake.Refused("rank 2 is out of range [0, 2)"), outcome.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void malformedLinesAndEarlyClosesSayWhat() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            pair.peerSends("JSPIN-RDV/2 HELLO job 0 " + SecretProof.hex(new byte[SecretProof.BYTES]) + " bad%zz");
            ServerHandshake.Refused r = assertInstanceOf(ServerHandshake.Refused.class, outcome.get(10, TimeUnit.SECONDS));
            assertTrue(r.reason().startsWith("malformed hello: bad %-escape"), r.reason());
        }
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            pair.peer.shutdownOutput();
            assertEquals(new ServerHandshake.Closed("without a hello"), outcome.get(10, TimeUnit.SECONDS));
        }
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            pair.peerSends(String.join(" ", Wire.VERSION, Wire.HELLO, "job", "0", SecretProof.hex(SecretProof.nonce()), "e"));
            pair.peerIn.readLine();
            pair.peerSends(Wire.VERSION + " " + Wire.PROOF + " nothex");
            ServerHandshake.Refused r = assertInstanceOf(ServerHandshake.Refused.class, outcome.get(10, TimeUnit.SECONDS));
            assertTrue(r.reason().startsWith("malformed proof"), r.reason());
        }
        try (LoopbackPair pair = new LoopbackPair()) {
            CompletableFuture<ServerHandshake.Outcome> outcome = serve(pair);
            pair.peerSends(String.join(" ", Wire.VERSION, Wire.HELLO, "job", "0", SecretProof.hex(SecretProof.nonce()), "e"));
            pair.peerIn.readLine();
            pair.peer.shutdownOutput();
            assertEquals(new ServerHandshake.Closed("after the challenge"), outcome.get(10, TimeUnit.SECONDS));
        }
    }
}
