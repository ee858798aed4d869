package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.Iterator;

import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.match.Matcher;

/**
 * Cut-through: where an arriving packet's payload may go before the packet is in
 * ({@link PacketHandler#landing}). A DATA chunk lands straight in its receive's memory; an RTS's or
 * an eager message's header may match a posted receive as it arrives, so the CTS leaves (or the
 * payload is read into place) without waiting for the payload. The fabric offers an RTS's or an
 * eager header only once every packet before it is delivered, so matching then keeps MPI's order.
 *
 * @param <R> the data path's state per receive
 */
final class EarlyMatch<R> {
    private final DataPath<?, R> path;
    private final Matcher<RecvOp<R>, Unexpected> matcher;
    private final Receiver<R> receiver;
    private final EagerCredit credit;
    /** Departed ranks: nothing from one of them matches early. */
    private final BitSet failedRanks;
    private final int size;
    /**
     * Receives matched as their headers arrived, by the header's packet (the one delivered once its
     * payload is in), until that packet is delivered ({@link #claim}). By identity: no allocation per entry.
     */
    private final IdentityHashMap<Packet, RecvOp<R>> matchedEarly = new IdentityHashMap<>();

    /**
     * @param path        where a receive's memory is ({@link DataPath#landing})
     * @param matcher     the posted receives
     * @param receiver    which records a match and accepts a rendezvous
     * @param credit      the eager credit, taken for a payload matched early
     * @param failedRanks the ranks that have departed (shared, filled by {@link PeerFailure})
     * @param size        ranks in the job
     */
    EarlyMatch(DataPath<?, R> path, Matcher<RecvOp<R>, Unexpected> matcher, Receiver<R> receiver, EagerCredit credit,
               BitSet failedRanks, int size) {
        this.path = path;
        this.matcher = matcher;
        this.receiver = receiver;
        this.credit = credit;
        this.failedRanks = failedRanks;
        this.size = size;
    }

    /**
     * Where DATA chunk {@code h} may be written: into its receive's memory when the data path has it
     * there; only for a chunk of a live receive from the peer it matched, and wholly inside the bytes
     * that receive accepted.
     *
     * @return the memory, or null: delivered as usual, where the receiver deals with whatever is wrong
     */
    MemorySegment data(Packet h) {
        RecvOp<R> r = receiver.awaitingData(h.recvId);
        if (r == null || r.done || h.source != r.source || h.sendId != r.peerSendId || h.offset < 0
                || h.payloadLength > r.accepted - r.delivered || h.offset > r.accepted - h.payloadLength) {
            return null;
        }
        return path.landing(r, h.offset, h.payloadLength);
    }

    /**
     * An RTS whose header has arrived: if the first posted receive it matches takes the whole
     * message, the RTS matches now and its CTS is due at once. If the data path has that receive's
     * memory for the payload, the payload lands there as it arrives; otherwise (a receive the CPU
     * unpacks) it is read into a read buffer and delivered when the RTS is in. Either way the
     * sender's DATA does not wait for that payload to be read and unpacked. Anything else (no
     * receive posted, a truncating or mismatched one) is left to {@link Receiver#onRts}.
     *
     * @return where the payload lands, or null
     */
    MemorySegment rts(Packet h) {
        int n = h.payloadLength;
        RecvOp<R> r = n > 0 && n < h.messageLength ? postedTakingWhole(h) : null;
        if (r == null) {
            return null;
        }
        MemorySegment place = path.landing(r, 0, n); // null: delivered from a read buffer
        matcher.matchPosted(h.matchBits); // takes r, the receive just looked at
        receiver.matched(r, h.source, h.matchBits, h.messageLength, h.signatureHash, h.signatureElements);
        credit.taken(h.source, n);
        matchedEarly.put(h, r);
        boolean takesIt = r.accepted == h.messageLength; // false only if setting up the receive failed
        if (takesIt) {
            r.landingWithRts = n;
        }
        receiver.acceptRendezvous(r, h.sendId);
        return takesIt ? place : null;
    }

    /**
     * An eager message whose header has arrived: if the first posted receive it matches takes the
     * whole message into memory the data path has for it (a contiguous receive), it matches now and
     * the payload is read straight into that memory. Anything else (no receive posted, a truncating
     * or mismatched one, a receive the CPU unpacks, which gains nothing from matching early) is
     * matched when the packet is delivered.
     *
     * @return where the payload lands, or null
     */
    MemorySegment eager(Packet h) {
        int n = h.payloadLength;
        RecvOp<R> r = n > 0 && n == h.messageLength ? postedTakingWhole(h) : null;
        MemorySegment place = r == null ? null : path.landing(r, 0, n);
        if (place == null) {
            return null;
        }
        matcher.matchPosted(h.matchBits); // takes r, the receive just looked at
        credit.taken(h.source, n);
        receiver.matched(r, h.source, h.matchBits, h.messageLength, h.signatureHash, h.signatureElements);
        matchedEarly.put(h, r);
        return r.accepted == n ? place : null; // otherwise setting up the receive failed: onEager reports it
    }

    /**
     * @return the first posted receive the message of header {@code h} matches, if it takes the whole
     *         message (no truncation, no signature mismatch) from a live peer, else null; nothing is
     *         taken from the posted list
     */
    private RecvOp<R> postedTakingWhole(Packet h) {
        if (h.source < 0 || h.source >= size || failedRanks.get(h.source)) {
            return null;
        }
        RecvOp<R> r = matcher.peekPosted(h.matchBits);
        if (r == null || Acceptance.refusal(r.entry, r.capacity, h.matchBits, h.messageLength, h.signatureHash,
                h.signatureElements) != null) {
            return null;
        }
        return r;
    }

    /** @return the receive {@code p}'s header matched as it arrived, no longer waiting; or null */
    RecvOp<R> claim(Packet p) {
        return matchedEarly.isEmpty() ? null : matchedEarly.remove(p);
    }

    /** Fails the receives matched early from {@code peer}: their packets will not come, and an eager one waits nowhere else. */
    void failFrom(int peer, MpiException e) {
        for (Iterator<RecvOp<R>> it = matchedEarly.values().iterator(); it.hasNext(); ) {
            RecvOp<R> r = it.next();
            if (r.source == peer) {
                it.remove();
                receiver.failAwaiting(r, e);
            }
        }
    }

    /** Fails every receive matched early (an eager header's: done, whatever comes; an RTS's awaits data too). */
    void failAll(MpiException e) {
        for (RecvOp<R> r : matchedEarly.values()) {
            receiver.fail(r, e);
        }
    }
}
