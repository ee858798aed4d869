package org.jspin.nic.engine;

import java.util.Arrays;

import org.agrona.collections.IntArrayQueue;

/**
 * Eager credit, both ways. Each rank may leave at most {@code perPeer} eager bytes at a peer that
 * no receive has taken yet; beyond that it sends by rendezvous until the peer gives credit back.
 * The peer gives it back in CREDIT packets, in batches of half the credit, so that one packet
 * answers many messages and the sender never runs dry while it waits for one. So what a rank
 * buffers for messages nobody has asked for yet is bounded per sender. No threads, no clock: the
 * core asks and tells.
 */
final class EagerCredit {
    /** Eager bytes this rank may still send to each rank before that rank gives credit back. */
    private final long[] left;
    /** Eager bytes taken from each rank and not yet given back to it as credit. */
    private final long[] owed;
    /** Ranks owed a CREDIT packet, in the order their debt passed half the credit. */
    private final IntArrayQueue due = new IntArrayQueue();
    private final long half;

    /**
     * @param ranks   the job's size
     * @param perPeer eager bytes a rank may leave at each peer
     */
    EagerCredit(int ranks, long perPeer) {
        this.left = new long[ranks];
        Arrays.fill(left, perPeer);
        this.owed = new long[ranks];
        this.half = perPeer / 2;
    }

    /**
     * @return whether {@code bytes} may go eagerly to {@code peer}; a rank outside the job may (the
     *         fabric refuses it, and the send fails there)
     */
    boolean canSpend(int peer, long bytes) {
        return !known(peer) || bytes <= left[peer];
    }

    /** Spends {@code bytes} of the credit at {@code peer} (after {@link #canSpend} said yes). */
    void spend(int peer, long bytes) {
        if (known(peer)) {
            left[peer] -= bytes;
        }
    }

    /** {@code peer} gave {@code bytes} of credit back (a CREDIT packet). */
    void returned(int peer, long bytes) {
        if (known(peer) && bytes > 0) {
            left[peer] += bytes;
        }
    }

    /**
     * An eager message of {@code bytes} from {@code source} has been taken by a receive: its room in
     * the overflow buffer is free, and once the debt to {@code source} passes half the credit a
     * CREDIT packet is due.
     */
    void taken(int source, long bytes) {
        if (bytes == 0 || !known(source)) {
            return;
        }
        long before = owed[source];
        owed[source] = before + bytes;
        if (before < half && owed[source] >= half) {
            due.add(source);
        }
    }

    /** @return whether some rank is owed a CREDIT packet */
    boolean hasDue() {
        return !due.isEmpty();
    }

    /** @return the next rank owed a CREDIT packet, in the order their debts passed half the credit */
    int nextDue() {
        return due.poll();
    }

    /** @return the bytes owed to {@code peer}, now counted as given back (what its CREDIT packet carries) */
    long settle(int peer) {
        long bytes = owed[peer];
        owed[peer] = 0;
        return bytes;
    }

    private boolean known(int rank) {
        return rank >= 0 && rank < left.length;
    }
}
