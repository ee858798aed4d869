package org.jspin.nic.engine;

import java.util.BitSet;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.PacketHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ranks that have failed or left the job, and what their departure ends: the sends to them (and
 * their packets in the backlog), the receives matched from them, the posted receives and waiting
 * probes naming them, and, once every other rank is gone, those of any source.
 */
final class PeerFailure {
    /** The core's logger: where its parts log is part of what the protocol prints. */
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolCore.class);

    private final BitSet failedRanks;
    private final int rank;
    private final int size;
    private final Sender<?> sender;
    private final Outbox<?> outbox;
    private final Receiver<?> receiver;
    private final EarlyMatch<?> early;
    private final WaitingProbes probes;

    /**
     * @param failedRanks the departed ranks, filled here and read by the receiver and early matching
     * @param rank        this rank (for the log)
     * @param size        ranks in the job
     */
    PeerFailure(BitSet failedRanks, int rank, int size, Sender<?> sender, Outbox<?> outbox, Receiver<?> receiver,
                EarlyMatch<?> early, WaitingProbes probes) {
        this.failedRanks = failedRanks;
        this.rank = rank;
        this.size = size;
        this.sender = sender;
        this.outbox = outbox;
        this.receiver = receiver;
        this.early = early;
        this.probes = probes;
    }

    /** @return whether {@code peer} has departed */
    boolean hasFailed(int peer) {
        return failedRanks.get(peer);
    }

    /** {@code peer} has departed ({@link PacketHandler#onPeerFailed}): what waits on it fails, once. */
    void onPeerFailed(int peer, String reason) {
        if (failedRanks.get(peer)) {
            return;
        }
        failedRanks.set(peer);
        LOG.debug("rank {}: peer {} gone: {}", rank, peer, reason);
        MpiException e = failure(peer);
        sender.failTo(peer, e);
        outbox.dropTo(peer); // what is left: CTSs and credit for it
        receiver.failFrom(peer, e);
        early.failFrom(peer, e); // their packets will not come; a receive an eager header matched waits nowhere else
        boolean nobodyLeft = failedRanks.cardinality() >= size - 1;
        receiver.failPosted(op -> op.entry.peer() == peer || (nobodyLeft && op.entry.peer() < 0), e);
        probes.fail(peer, nobodyLeft, e);
    }

    /**
     * @return why nothing can come from {@code peer} (-1: any rank) any more, or null if something
     *         still can: a wildcard waits as long as some other rank is alive, as in
     *         {@link #onPeerFailed} (which fails the wildcards already waiting when the last one goes)
     */
    MpiException gone(int peer) {
        if (peer >= 0) {
            return failedRanks.get(peer) ? failure(peer) : null;
        }
        if (size > 1 && failedRanks.cardinality() >= size - 1) {
            return new MpiException(ErrorClass.ERR_PROC_FAILED, "every other rank (" + failedRanks
                    + ") has failed or left the job");
        }
        return null;
    }

    /** @return the error of an operation with {@code peer} once it has departed */
    static MpiException failure(int peer) {
        return new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + peer + " has failed or left the job");
    }
}
