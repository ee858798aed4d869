package org.jspin.nic.sim.schedule;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.LinkFaults;

/**
 * The simulated link as it carries one received message's packets to the NIC, with the faults of
 * {@link LinkFaults}: each transmission of a packet is lost with probability {@code drop}; each
 * delivered packet arrives a second time, after the rest of its pass, with probability
 * {@code duplicate}.
 *
 * <p>The receiving NIC keeps a ledger of the chunk's packets, as a reliable transport keeps packet
 * sequence numbers (by chunk, since a chunk of the fabric may cut a NIC packet in two): a copy of a
 * packet it already has is discarded before any handler sees it, so a handler runs once per packet
 * whatever the link does. Packets missing after a pass over a chunk are
 * asked for again (a NACK) and sent again, selectively, up to {@code retransmits} times; a packet
 * lost more often fails the message with ERR_OTHER naming it. So a message ends with its exact bytes
 * or with a clear error, never with a silently wrong buffer.
 *
 * <p>Deterministic: the faults depend only on the seed and the message's sequence number. Not
 * thread-safe; no allocation per packet (its arrays grow to the largest chunk, once).
 */
public final class LossyLink {
    /** Where the link's packets go: the receiving NIC (or the CPU, on a fallback). */
    public interface Receiver {
        /** The first copy of packet {@code slot} of the chunk arrived: its handler runs. */
        void arrived(int slot);

        /** A transmission of packet {@code slot} took the link but reached no handler (lost or discarded). */
        void wasted(int slot);

        /** The receiver asked for lost packets again and waits for the sender to resend them. */
        void nack();
    }

    private final LinkFaults faults;
    private final SplittableRandom random;
    private long[] ledger = new long[0];
    private int[] lost = new int[0];
    private int[] copies = new int[0];
    private int[] resend = new int[0];
    private long dropped;
    private long discarded;
    private long retransmitted;

    /**
     * @param faults  what the link does wrong
     * @param seed    the configured seed
     * @param message the message's sequence number on this NIC
     */
    public LossyLink(LinkFaults faults, long seed, long message) {
        this.faults = faults;
        if (faults.any()) {
            // a stream apart from PacketOrder's, so that adding faults does not change the permutation
            this.random = new SplittableRandom(~(seed * 0x9E3779B97F4A7C15L + message));
        } else {
            this.random = null;
        }
    }

    /**
     * Carries the {@code n} packets of one chunk, in the order {@code arrival[0..n)} gives, to
     * {@code receiver}; returns when every one has arrived once.
     *
     * @param first the message-wide number of the chunk's slot 0 (named in an error)
     * @throws MpiException ERR_OTHER naming a packet lost more often than the link retransmits
     */
    public void carry(int[] arrival, int n, long first, Receiver receiver) {
        if (random == null) {
            for (int i = 0; i < n; i++) {
                receiver.arrived(arrival[i]);
            }
            return;
        }
        if (lost.length < n) {
            lost = new int[n];
            copies = new int[n];
            resend = new int[n];
            ledger = new long[(n + 63) >>> 6];
        } else {
            Arrays.fill(ledger, 0, (n + 63) >>> 6, 0L);
        }
        int lostCount = pass(arrival, n, receiver);
        for (int round = 1; lostCount > 0; round++) {
            if (round > faults.retransmits()) {
                long k = first + lost[0];
                throw new MpiException(ErrorClass.ERR_OTHER, "NIC packet " + k + " of the message was lost "
                        + round + " times: the link gives up after " + faults.retransmits() + " retransmissions"
                        + " (drop probability " + faults.drop() + ")");
            }
            receiver.nack();
            System.arraycopy(lost, 0, resend, 0, lostCount);
            retransmitted += lostCount;
            lostCount = pass(resend, lostCount, receiver);
        }
    }

    /** One pass over {@code slots}, then the copies it made; @return how many were lost (in {@link #lost}) */
    private int pass(int[] slots, int n, Receiver receiver) {
        int lostCount = 0;
        int copyCount = 0;
        for (int i = 0; i < n; i++) {
            int slot = slots[i];
            if (random.nextDouble() < faults.drop()) {
                dropped++;
                receiver.wasted(slot);
                lost[lostCount++] = slot;
                continue;
            }
            receive(slot, receiver);
            if (random.nextDouble() < faults.duplicate()) {
                copies[copyCount++] = slot;
            }
        }
        for (int i = 0; i < copyCount; i++) {
            receive(copies[i], receiver);
        }
        return lostCount;
    }

    /** A packet reaches the NIC: the ledger lets the first copy through and discards the others. */
    private void receive(int slot, Receiver receiver) {
        int word = slot >>> 6;
        long bit = 1L << slot;
        if ((ledger[word] & bit) != 0) {
            discarded++;
            receiver.wasted(slot);
            return;
        }
        ledger[word] |= bit;
        receiver.arrived(slot);
    }

    /** @return transmissions the link lost */
    public long dropped() {
        return dropped;
    }

    /** @return copies the ledger discarded */
    public long discarded() {
        return discarded;
    }

    /** @return packets sent again after a NACK */
    public long retransmitted() {
        return retransmitted;
    }
}
