package org.jspin.transport.shm;

import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.bootstrap.SecretProof;
import org.jspin.nic.fabric.PacketHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job secret between the ranks of a shm fabric: this rank's first record in each peer's ring
 * is its hello, an HMAC over the job, that ring's name and this rank; a peer's packets are taken
 * only once its hello in this rank's ring proved the same.
 */
final class RingHellos {
    static final String HELLO_LABEL = "jspin-shm-hello";
    private static final Logger LOG = LoggerFactory.getLogger(RingHellos.class);

    private final String jobId;
    private final int rank;
    private final byte[] secret;
    /** Every rank's ring, indexed by rank; null for ranks on other hosts. */
    private final RingFile[] rings;
    private final boolean[] proven;
    private int unproven;

    /** @param rings every rank's ring, this rank's included, mapped */
    RingHellos(String jobId, int rank, String secret, RingFile[] rings) {
        this.jobId = jobId;
        this.rank = rank;
        this.secret = SecretProof.utf8(secret);
        this.rings = rings;
        this.proven = new boolean[rings.length];
        proven[rank] = true;
        for (int r = 0; r < rings.length; r++) {
            if (r != rank && rings[r] != null) {
                unproven++;
            }
        }
    }

    /** Writes this rank's proof into every peer's ring, {@code outboxes} indexed by rank. */
    void sayHello(ManyToOneRingBuffer[] outboxes) {
        for (int r = 0; r < rings.length; r++) {
            if (r != rank && rings[r] != null) {
                hello(r, outboxes[r]);
            }
        }
    }

    private void hello(int peer, ManyToOneRingBuffer out) {
        byte[] proof = proof(rank, rings[peer].path());
        UnsafeBuffer b = rings[peer].ring();
        int at;
        while ((at = out.tryClaim(RingRecord.HELLO, RingRecord.HELLO_BYTES)) < 0) {
            Thread.onSpinWait(); // a new ring has room for every hello; only a peer's early packets can fill it
        }
        b.putInt(at + RingRecord.HELLO_SOURCE_AT, rank);
        b.putBytes(at + RingRecord.HELLO_PROOF_AT, proof);
        out.commit(at);
        rings[peer].signal();
    }

    private byte[] proof(int from, Path ring) {
        return SecretProof.of(secret, HELLO_LABEL, SecretProof.utf8(jobId),
                SecretProof.utf8(ring.getFileName().toString()), SecretProof.int32(from));
    }

    /**
     * Takes a hello record from this rank's ring: a malformed one is dropped (it names no peer to
     * fail), one that proves another secret fails its sender through {@code departures}.
     */
    void received(DirectBuffer buffer, int index, int length, PacketHandler handler, Departures departures) {
        int source = length == RingRecord.HELLO_BYTES ? buffer.getInt(index + RingRecord.HELLO_SOURCE_AT) : -1;
        if (source < 0 || source >= rings.length || source == rank || rings[source] == null) {
            LOG.error("rank {}: dropped a malformed hello ({} bytes, rank {})", rank, length, source);
            return;
        }
        byte[] given = new byte[SecretProof.BYTES];
        buffer.getBytes(index + RingRecord.HELLO_PROOF_AT, given);
        if (!SecretProof.matches(proof(source, rings[rank].path()), given)) {
            departures.fail(handler, source, "rank " + source + "'s hello to rank " + rank
                    + " does not prove the job secret");
            return;
        }
        if (!proven[source]) {
            proven[source] = true;
            unproven--;
        }
    }

    /** @return whether rank {@code r} has proved the job secret (this rank has) */
    boolean proven(int r) {
        return proven[r];
    }

    /** @return whether every peer has proved the job secret: its ring's name is no longer needed */
    boolean allProven() {
        return unproven == 0;
    }
}
