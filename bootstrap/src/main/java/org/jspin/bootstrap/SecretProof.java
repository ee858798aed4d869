package org.jspin.bootstrap;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proof that a party holds the job secret, without sending it: HMAC-SHA256 keyed with the secret
 * over a label naming the party's role and the fields of the exchange, each fresh random nonce
 * among them. What the fabric's handshake and the rendezvous both use, so that the secret never
 * crosses the wire, a recorded exchange cannot be replayed (the other side's nonce is new each
 * time) and one role's proof cannot be passed off as the other's (the labels differ).
 */
public final class SecretProof {
    /** Bytes of a nonce and of a proof. */
    public static final int BYTES = 32;

    private static final String HMAC = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretProof() {
    }

    /** @return {@value #BYTES} fresh random bytes */
    public static byte[] nonce() {
        byte[] n = new byte[BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * @param secret the job secret (its UTF-8 bytes)
     * @param label  the prover's role, as the protocol names it
     * @param fields what the proof binds, each taken with its length so that no two lists collide
     * @return the proof
     */
    public static byte[] of(byte[] secret, String label, byte[]... fields) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret, HMAC));
            field(mac, label.getBytes(StandardCharsets.UTF_8));
            for (byte[] f : fields) {
                field(mac, f);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + HMAC, e); // every Java SE has it
        }
    }

    private static void field(Mac mac, byte[] f) {
        mac.update(ByteBuffer.allocate(4).putInt(f.length).array());
        mac.update(f);
    }

    /** @return {@code s} as UTF-8, for {@link #of} */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return {@code v} as four big-endian bytes, for {@link #of} */
    public static byte[] int32(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    /** @return whether two proofs are equal, in time that does not depend on where they differ */
    public static boolean matches(byte[] expected, byte[] given) {
        return given != null && MessageDigest.isEqual(expected, given);
    }

    /** @return lower-case hex, for line protocols */
    public static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** @return the bytes of {@value #BYTES}-byte hex {@code s}, or null if it is not that */
    public static byte[] unhex(String s) {
        if (s == null || s.length() != 2 * BYTES) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
