package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.function.Predicate;

import org.agrona.collections.Long2ObjectHashMap;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.Matcher;

/**
 * The receiving side of the protocol, a handler per packet kind: an EAGER message or an RTS
 * matches the first posted receive (else joins the {@link UnexpectedMessages}), a matched RTS gets
 * its CTS, DATA lands in its receive, CREDIT gives eager credit back. It also gives back, in CREDIT
 * packets, the credit of the eager bytes its receives took, and completes or fails receives.
 *
 * @param <R> the data path's state per receive
 */
final class Receiver<R> {
    private final Fabric fabric;
    private final DataPath<?, R> path;
    private final PacketPool pool;
    private final Outbox<?> outbox;
    private final Matcher<RecvOp<R>, Unexpected> matcher;
    private final UnexpectedMessages unexpected;
    private final EagerCredit credit;
    /** Departed ranks: a rendezvous with one of them fails at once. */
    private final BitSet failedRanks;
    /** Matched rendezvous receives whose data is flowing, by id. */
    private final Long2ObjectHashMap<RecvOp<R>> awaitingData = new Long2ObjectHashMap<>();
    /** Receives whose CTS is not out yet. */
    private final ArrayDeque<RecvOp<R>> ctsDue = new ArrayDeque<>();
    private final Tally messagesReceived;
    private final Tally bytesReceived;

    /**
     * @param fabric      where arrived packets go back
     * @param path        how bytes get out of packets
     * @param pool        the packets CTSs and CREDITs take
     * @param outbox      where they go
     * @param matcher     the posted receives and unexpected messages
     * @param unexpected  where a message nobody has asked for goes
     * @param credit      the eager credit at each peer
     * @param failedRanks the ranks that have departed (shared, filled by {@link PeerFailure})
     * @param meters      where {@code jspin.messages.received} and {@code jspin.bytes.received} are counted
     */
    Receiver(Fabric fabric, DataPath<?, R> path, PacketPool pool, Outbox<?> outbox,
             Matcher<RecvOp<R>, Unexpected> matcher, UnexpectedMessages unexpected, EagerCredit credit,
             BitSet failedRanks, Meters meters) {
        this.fabric = fabric;
        this.path = path;
        this.pool = pool;
        this.outbox = outbox;
        this.matcher = matcher;
        this.unexpected = unexpected;
        this.credit = credit;
        this.failedRanks = failedRanks;
        this.messagesReceived = meters.counter("jspin.messages.received", "messages");
        this.bytesReceived = meters.counter("jspin.bytes.received", "bytes");
    }

    /** @return whether some receive's CTS is not out yet */
    boolean hasCtsDue() {
        return !ctsDue.isEmpty();
    }

    /** @return the matched receive {@code recvId} whose DATA is flowing, or null */
    RecvOp<R> awaitingData(long recvId) {
        return awaitingData.get(recvId);
    }

    /** Sends the CTSs due, then the CREDITs due, as far as the packet pool allows. @return packets sent */
    int pump() {
        int work = 0;
        while (!ctsDue.isEmpty()) {
            Packet p = pool.acquire(true);
            if (p == null) {
                return work;
            }
            sendCts(ctsDue.poll(), p);
            work++;
        }
        while (credit.hasDue()) {
            Packet p = pool.acquire(true);
            if (p == null) {
                return work;
            }
            sendCredit(credit.nextDue(), p);
            work++;
        }
        return work;
    }

    /** Gives {@code peer} back the eager credit for the bytes taken from it since the last time. */
    private void sendCredit(int peer, Packet p) {
        p.kind = PacketKind.CREDIT;
        p.target = peer;
        p.messageLength = credit.settle(peer);
        p.owner = null;
        outbox.send(p);
    }

    private void sendCts(RecvOp<R> r, Packet p) {
        p.kind = PacketKind.CTS;
        p.target = r.source;
        p.sendId = r.peerSendId;
        p.recvId = r.id;
        p.messageLength = r.accepted;
        p.offset = r.delivered + r.landingWithRts; // what the RTS brought: DATA goes on from there
        p.owner = null;
        outbox.send(p);
        if (r.delivered == r.accepted && !r.done) {
            finish(r); // all there with the RTS, or nothing will flow (type mismatch, empty receive)
        }
    }

    // ---- a handler per packet kind ------------------------------------------------------------

    /** A CREDIT: the peer gives back eager credit. */
    void onCredit(Packet p) {
        credit.returned(p.source, p.messageLength);
        fabric.release(p);
    }

    /** An EAGER packet; {@code early} is the receive its header matched as it arrived ({@link EarlyMatch#claim}), or null. */
    void onEager(Packet p, RecvOp<R> early) {
        if (early != null) {
            eagerMatchedEarly(early, p);
            return;
        }
        RecvOp<R> r = postedFor(PacketKind.EAGER, p);
        if (r == null) {
            return;
        }
        credit.taken(p.source, p.messageLength);
        try {
            matched(r, p.source, p.matchBits, p.messageLength, p.signatureHash, p.signatureElements);
            finishEager(r, p.payload, p.payloadOffset);
        } finally {
            fabric.release(p);
        }
    }

    /** @return the first posted receive {@code p}'s message matches, taken; or null, the message kept unexpected */
    private RecvOp<R> postedFor(PacketKind kind, Packet p) {
        RecvOp<R> r = matcher.matchPosted(p.matchBits);
        if (r == null) {
            unexpected.arrived(kind, p);
        }
        return r;
    }

    /** The EAGER packet whose header matched {@code r} as it arrived: its payload is in the receive's memory, or in {@code p}. */
    private void eagerMatchedEarly(RecvOp<R> r, Packet p) {
        try {
            if (r.done) {
                return; // failed meanwhile (its peer, or this NIC, stopped)
            }
            if (p.placed) {
                r.delivered = r.accepted;
                finish(r);
            } else {
                finishEager(r, p.payload, p.payloadOffset);
            }
        } finally {
            fabric.release(p);
        }
    }

    /** An RTS; {@code early} is the receive its header matched as it arrived ({@link EarlyMatch#claim}), or null. */
    void onRts(Packet p, RecvOp<R> early) {
        if (early != null) {
            rtsMatchedEarly(early, p);
            return;
        }
        RecvOp<R> r = postedFor(PacketKind.RTS, p);
        if (r == null) {
            return;
        }
        long sendId = p.sendId;
        try {
            matched(r, p.source, p.matchBits, p.messageLength, p.signatureHash, p.signatureElements);
            if (p.payloadLength > 0) {
                credit.taken(p.source, p.payloadLength);
                takeRtsPayload(r, p.payload, p.payloadOffset, p.payloadLength);
            }
        } finally {
            fabric.release(p);
        }
        acceptRendezvous(r, sendId);
    }

    /**
     * The RTS whose header matched {@code r} as it arrived, now in with its payload: landed in the
     * receive's memory, or in a read buffer to be delivered (unpacked) from. Its CTS is out already,
     * so a receive that cannot take these bytes fails here, as one that cannot take a DATA chunk does.
     */
    private void rtsMatchedEarly(RecvOp<R> r, Packet p) {
        try {
            if (r.landingWithRts > 0 && !r.done) {
                if (!p.placed) {
                    try {
                        path.deliver(r, 0, p.payload, p.payloadOffset, p.payloadLength);
                    } catch (RuntimeException e) {
                        failAwaiting(r, Completions.asMpi(e, "unpacking the bytes sent with the RTS"));
                        return;
                    }
                }
                r.delivered += p.payloadLength;
            }
        } finally {
            r.landingWithRts = 0;
            fabric.release(p);
        }
    }

    /** A DATA chunk of a matched rendezvous receive. */
    void onData(Packet p) {
        RecvOp<R> r = awaitingData.get(p.recvId);
        if (r == null || r.done) {
            fabric.release(p); // its receive failed already
            return;
        }
        int length = p.payloadLength;
        try {
            if (!p.placed) {
                path.deliver(r, p.offset, p.payload, p.payloadOffset, length);
            }
        } catch (RuntimeException e) {
            failAwaiting(r, Completions.asMpi(e, "unpacking bytes from " + p.offset));
            return;
        } finally {
            fabric.release(p);
        }
        r.delivered += length;
        if (r.delivered == r.accepted) {
            awaitingData.remove(r.id);
            finish(r);
        }
    }

    // ---- receives -----------------------------------------------------------------------------

    /** Receive {@code r} takes {@code u}: a matched probe's message, or one found on the unexpected list when it was posted. */
    void consume(RecvOp<R> r, Unexpected u) {
        r.fromOverflow = u.kind == PacketKind.EAGER;
        matched(r, u.source, u.bits, u.length, u.signatureHash, u.signatureElements);
        if (u.kind == PacketKind.EAGER) {
            credit.taken(u.source, u.length);
            try {
                finishEager(r, u.data, u.dataOffset);
            } finally {
                unexpected.release(u);
            }
        } else {
            if (u.dataBytes > 0) {
                credit.taken(u.source, u.dataBytes);
                try {
                    takeRtsPayload(r, u.data, u.dataOffset, u.dataBytes);
                } finally {
                    unexpected.release(u);
                }
            }
            acceptRendezvous(r, u.sendId);
        }
    }

    /** Records the match and decides how many bytes the receive takes (truncation, signature). */
    void matched(RecvOp<R> r, int source, long bits, long length, long hash, long elements) {
        r.source = source;
        r.messageBits = bits;
        r.messageBytes = length;
        MpiException refusal = Acceptance.refusal(r.entry, r.capacity, bits, length, hash, elements);
        r.accepted = Acceptance.accepted(refusal, length, r.capacity);
        if (refusal != null) {
            r.error = refusal;
        }
        if (r.accepted > 0) {
            try {
                path.receiveStarted(r);
            } catch (RuntimeException ex) {
                r.error = Completions.asMpi(ex, "setting up the receive");
                r.accepted = 0; // nothing is delivered: the receive completes with this error
            }
        }
    }

    /**
     * Delivers the {@code n} bytes an RTS carried to its receive, as far as the receive accepts
     * them. If they cannot be unpacked the receive takes nothing more (its CTS accepts 0 bytes, so
     * the sender ends) and completes with the error.
     */
    private void takeRtsPayload(RecvOp<R> r, MemorySegment src, long srcOffset, long n) {
        if (n > r.messageBytes) {
            r.error = new MpiException(ErrorClass.ERR_OTHER, "rank " + r.source + " sent " + n
                    + " bytes with the RTS of a " + r.messageBytes + "-byte message");
        } else {
            long take = Math.min(n, r.accepted);
            if (take <= 0) {
                return;
            }
            try {
                path.deliver(r, 0, src, srcOffset, take);
                r.delivered = take;
                return;
            } catch (RuntimeException e) {
                r.error = Completions.asMpi(e, "unpacking the bytes sent with the RTS");
            }
        }
        if (r.accepted > 0) {
            path.abandon(r);
        }
        r.accepted = 0;
        r.delivered = 0;
    }

    private void finishEager(RecvOp<R> r, MemorySegment src, long srcOffset) {
        try {
            if (r.accepted > 0) {
                path.deliver(r, 0, src, srcOffset, r.accepted);
                r.delivered = r.accepted;
            }
        } catch (RuntimeException ex) {
            fail(r, Completions.asMpi(ex, "unpacking the eager message"));
            return;
        }
        finish(r);
    }

    /** A matched RTS of send {@code sendId}: its CTS is due, and its DATA awaited unless the RTS brought it all. */
    void acceptRendezvous(RecvOp<R> r, long sendId) {
        r.peerSendId = sendId;
        if (failedRanks.get(r.source)) {
            fail(r, PeerFailure.failure(r.source));
            return;
        }
        ctsDue.add(r);
        if (r.delivered < r.accepted) {
            awaitingData.put(r.id, r);
        }
    }

    private void finish(RecvOp<R> r) {
        try {
            if (r.accepted > 0) {
                path.finish(r);
            }
        } catch (RuntimeException ex) {
            fail(r, Completions.asMpi(ex, "unpacking the staged message"));
            return;
        }
        r.done = true;
        messagesReceived.add(1);
        bytesReceived.add(r.delivered);
        Completions.tell(r.entry, new Event(Event.Kind.RECEIVE, r.messageBits, r.messageBytes, r.delivered, r.error,
                false), fabric.rank());
    }

    /** Ends {@code r} (if it has not ended) with error {@code e}. */
    void fail(RecvOp<R> r, MpiException e) {
        if (r.done) {
            return;
        }
        r.done = true;
        path.abandon(r);
        long bits = r.source >= 0 ? r.messageBits : r.entry.matchBits();
        Completions.tell(r.entry, new Event(Event.Kind.RECEIVE, bits, r.messageBytes, r.delivered, e, false),
                fabric.rank());
    }

    /** Fails {@code r}, no longer awaiting its data. */
    void failAwaiting(RecvOp<R> r, MpiException e) {
        awaitingData.remove(r.id);
        fail(r, e);
    }

    /** Ends a posted receive taken off the posted list unmatched: cancelled. */
    void cancelled(RecvOp<R> r) {
        r.done = true;
        path.abandon(r); // DataPath's contract: a receive that ends early is abandoned, matched or not
        Completions.tell(r.entry, new Event(Event.Kind.RECEIVE, r.entry.matchBits(), 0, 0, null, true), fabric.rank());
    }

    /** Fails the posted receives {@code which} selects, taking them off the posted list. */
    void failPosted(Predicate<RecvOp<R>> which, MpiException e) {
        RecvOp<R> r;
        while ((r = matcher.removePosted(which)) != null) {
            fail(r, e);
        }
    }

    /** Fails the matched receives from {@code peer}: those awaiting data, then those whose CTS is due. */
    void failFrom(int peer, MpiException e) {
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            if (r.source == peer) {
                failAwaiting(r, e);
            }
        }
        for (Iterator<RecvOp<R>> it = ctsDue.iterator(); it.hasNext(); ) {
            RecvOp<R> r = it.next();
            if (r.source == peer) {
                it.remove();
                failAwaiting(r, e);
            }
        }
    }

    /** Fails every matched receive awaiting data. */
    void failAwaitingData(MpiException e) {
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            fail(r, e);
        }
    }
}
