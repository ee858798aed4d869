package org.jspin.nic.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;

import org.agrona.collections.Long2ObjectHashMap;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending side of the protocol: sends queued until their first packet (EAGER, or RTS and the
 * bytes its credit allows) goes, the first DATA chunk packed while the CTS is on the way
 * ({@link DataPath#packsAhead}), the CTS that says what the receive takes, DATA streamed round
 * robin across sends, and each send's completion once the fabric has released all it sent.
 *
 * @param <S> the data path's state per send
 */
final class Sender<S> {
    /** The core's logger: where its parts log is part of what the protocol prints. */
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolCore.class);

    private final Fabric fabric;
    private final DataPath<S, ?> path;
    private final PacketPool pool;
    private final Outbox<S> outbox;
    private final EagerCredit credit;
    private final int chunkSize;
    private final int eagerLimit;
    private final int rtsPayload;
    private final boolean packedRtsPayload;
    private final int wholeData;

    /** Sends not yet complete, by id. */
    private final Long2ObjectHashMap<SendOp<S>> live = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SendOp<S>> awaitingCts = new Long2ObjectHashMap<>();
    /** Sends whose first packet (EAGER or RTS) is not out yet, in the order they were started. */
    private final ArrayDeque<SendOp<S>> queued = new ArrayDeque<>();
    /** Sends whose RTS is out and whose first DATA chunk is to be packed while they wait for their CTS, in the order their RTSs left. */
    private final ArrayDeque<SendOp<S>> packAhead = new ArrayDeque<>();
    /** Sends streaming DATA, served round robin. */
    private final ArrayDeque<SendOp<S>> streaming = new ArrayDeque<>();
    private final Tally messagesSent;
    private final Tally bytesSent;

    /**
     * @param fabric where memory for packing is claimed ({@link Fabric#claim})
     * @param path   how bytes get into packets
     * @param pool   the packets there are
     * @param outbox where packets go
     * @param credit the eager credit at each peer
     * @param limits eager limit, chunk size, bytes with an RTS, whole data
     * @param meters where {@code jspin.messages.sent} and {@code jspin.bytes.sent} are counted
     */
    Sender(Fabric fabric, DataPath<S, ?> path, PacketPool pool, Outbox<S> outbox, EagerCredit credit,
           SendLimits limits, Meters meters) {
        this.fabric = fabric;
        this.path = path;
        this.pool = pool;
        this.outbox = outbox;
        this.credit = credit;
        this.chunkSize = limits.chunkSize();
        this.eagerLimit = limits.eagerLimit();
        this.rtsPayload = limits.rtsPayload();
        this.packedRtsPayload = limits.packedRtsPayload();
        this.wholeData = limits.wholeData();
        this.messagesSent = meters.counter("jspin.messages.sent", "messages");
        this.bytesSent = meters.counter("jspin.bytes.sent", "bytes");
    }

    /** Accepts send {@code op} (its id set): its first packet goes in a later {@link #pump}. */
    void start(SendOp<S> op) {
        live.put(op.id, op);
        try {
            path.sendStarted(op);
        } catch (RuntimeException e) {
            fail(op, Completions.asMpi(e, "setting up the send")); // fails the send, never strands it
            return;
        }
        queued.add(op);
    }

    /** @return whether every send accepted has ended */
    boolean isIdle() {
        return live.isEmpty();
    }

    /** @return sends accepted and not yet ended */
    int inFlight() {
        return live.size();
    }

    /** @return whether some send's first packet is not out yet */
    boolean hasQueued() {
        return !queued.isEmpty();
    }

    /**
     * Sends what the packet pool allows: first packets of queued sends, then chunks packed ahead,
     * then DATA round robin.
     *
     * @return packets used
     */
    int pump() {
        int work = 0;
        while (!queued.isEmpty()) {
            Packet p = pool.acquire(true);
            if (p == null) {
                return work;
            }
            SendOp<S> op = queued.poll();
            int target = op.put.target();
            if (op.length <= eagerLimit && credit.canSpend(target, op.length)) {
                credit.spend(target, op.length);
                sendEager(op, p);
            } else {
                sendRts(op, p);
            }
            work++;
        }
        while (!packAhead.isEmpty()) {
            SendOp<S> op = packAhead.peek();
            if (op.done || op.phase != SendOp.Phase.AWAITING_CTS) {
                packAhead.poll(); // its CTS came first (or it failed): nothing to pack ahead
                continue;
            }
            Packet p = pool.acquire(false);
            if (p == null) {
                return work;
            }
            packAhead.poll();
            packAhead(op, p);
            work++;
        }
        while (!streaming.isEmpty()) {
            Packet p = pool.acquire(false);
            if (p == null) {
                return work;
            }
            SendOp<S> op = streaming.poll();
            sendChunk(op, p);
            if (!op.done && op.sent < op.accepted) {
                streaming.add(op);
            }
            work++;
        }
        return work;
    }

    private void sendEager(SendOp<S> op, Packet p) {
        header(op, p, PacketKind.EAGER);
        op.accepted = op.length;
        op.phase = SendOp.Phase.DRAINING;
        int lent = op.length > 0 ? packLent(op, p, 0, (int) op.length) : 0;
        if (lent < 0) {
            return;
        }
        try {
            if (op.length > 0 && lent == 0) {
                path.fill(op, 0, (int) op.length, p);
            }
        } catch (RuntimeException e) {
            pool.free(p);
            fail(op, Completions.asMpi(e, "packing the eager message"));
            return;
        }
        op.sent = op.length;
        outbox.send(op, p);
    }

    /**
     * Packs bytes {@code [offset, offset + len)} of a packed send straight into memory the fabric
     * lends for {@code p} (its kind and target set), saving the copy out of a staging buffer. Only
     * when nothing waits in the backlog: the packet must go out at once, as the lent room is held
     * for it.
     *
     * @return 1 if packed there (the caller sends {@code p} next), 0 if not (the caller fills it
     *         as usual), -1 if packing failed (the send has failed, {@code p} is back in the pool)
     */
    private int packLent(SendOp<S> op, Packet p, long offset, int len) {
        if (!outbox.isEmpty() || path.sendsInPlace(op) || !fabric.claim(p, len)) {
            return 0;
        }
        try {
            if (path.fillLent(op, offset, len, p)) {
                return 1;
            }
        } catch (RuntimeException e) {
            fabric.abandon(p);
            pool.free(p);
            fail(op, Completions.asMpi(e, "packing bytes from " + offset));
            return -1;
        }
        fabric.abandon(p);
        return 0;
    }

    private void sendRts(SendOp<S> op, Packet p) {
        header(op, p, PacketKind.RTS);
        int target = op.put.target();
        // where packets are handed over by reference, a receive posted late drops the RTS's bytes
        // (see UnexpectedMessages) and asks for them again: free for a send in place, a second pack
        // for a packed one, which by the fabric's choice sends its RTS alone there and packs its
        // first chunk while the CTS comes
        int first = packedRtsPayload || path.sendsInPlace(op) ? (int) Math.min(rtsPayload, op.length) : 0;
        if (first > 0 && credit.canSpend(target, first)) {
            try {
                path.fill(op, 0, first, p);
            } catch (RuntimeException e) {
                pool.free(p);
                fail(op, Completions.asMpi(e, "packing the bytes sent with the RTS"));
                return;
            }
            credit.spend(target, first);
            op.withRts = first;
        }
        op.phase = SendOp.Phase.AWAITING_CTS;
        awaitingCts.put(op.id, op);
        outbox.send(op, p);
        if (op.length > op.withRts && path.packsAhead(op)) {
            packAhead.add(op);
        }
    }

    /**
     * Packs the send's first DATA chunk while its CTS is on the way: in a rendezvous the sender
     * would otherwise sit idle for that round trip and then pack before its first write. The chunk
     * starts where the RTS's bytes end, as the CTS says it will unless the receive kept fewer of them.
     */
    private void packAhead(SendOp<S> op, Packet p) {
        int len = (int) Math.min(chunkSize, op.length - op.withRts);
        if (fillData(op, p, op.withRts, len)) {
            op.ahead = p;
        }
    }

    /** Sends the chunk packed ahead, cut to what the receive accepted. */
    private void sendAhead(SendOp<S> op, Packet p) {
        int len = (int) Math.min(p.payloadLength, op.accepted - op.sent);
        p.payloadLength = len; // the packed bytes are positional: a prefix is the shorter chunk
        p.recvId = op.recvId;
        sent(op, p, len);
    }

    /** Gives back a chunk packed ahead that will not be sent. */
    private void dropAhead(SendOp<S> op) {
        Packet p = op.ahead;
        if (p != null) {
            op.ahead = null;
            path.released(p);
            pool.free(p);
        }
    }

    private void sendChunk(SendOp<S> op, Packet p) {
        int len = (int) Math.min(op.dataPacket, op.accepted - op.sent);
        dataHeader(op, p, op.sent);
        int lent = packLent(op, p, op.sent, len);
        if (lent < 0 || (lent == 0 && !fillData(op, p, op.sent, len))) {
            return;
        }
        sent(op, p, len);
    }

    /** Counts {@code len} more bytes of {@code op} sent, in {@code p}, and sends it. */
    private void sent(SendOp<S> op, Packet p, int len) {
        op.sent += len;
        if (op.sent == op.accepted) {
            op.phase = SendOp.Phase.DRAINING;
        }
        outbox.send(op, p);
    }

    /**
     * Makes {@code p} the DATA packet of the send's bytes {@code [offset, offset + len)} and fills
     * it; if the data path cannot, the packet goes back to the pool and the send fails.
     *
     * @return whether the packet was filled
     */
    private boolean fillData(SendOp<S> op, Packet p, long offset, int len) {
        dataHeader(op, p, offset);
        try {
            path.fill(op, offset, len, p);
            return true;
        } catch (RuntimeException e) {
            pool.free(p);
            fail(op, Completions.asMpi(e, "packing bytes from " + offset));
            return false;
        }
    }

    private static void dataHeader(SendOp<?> op, Packet p, long offset) {
        p.kind = PacketKind.DATA;
        p.target = op.put.target();
        p.sendId = op.id;
        p.recvId = op.recvId; // 0 for a chunk packed ahead: set when its CTS names the receive
        p.offset = offset;
    }

    private static void header(SendOp<?> op, Packet p, PacketKind kind) {
        p.kind = kind;
        p.target = op.put.target();
        p.matchBits = op.put.matchBits();
        p.sendId = op.id;
        p.messageLength = op.length;
        p.signatureHash = op.signatureHash;
        p.signatureElements = op.signatureElements;
    }

    /** A CTS: the receive of a send awaiting one accepts bytes up to its length, from its offset on. */
    void onCts(Packet p) {
        SendOp<S> op = awaitingCts.remove(p.sendId);
        long accepted = p.messageLength;
        long taken = p.offset;
        long recvId = p.recvId;
        fabric.release(p);
        if (op == null || op.done) {
            return;
        }
        if (accepted > op.length || taken < 0 || taken > Math.min(op.withRts, accepted)) {
            fail(op, new MpiException(ErrorClass.ERR_OTHER, "rank " + op.put.target() + " answered send " + op.id
                    + " (" + op.length + " bytes, " + op.withRts + " with the RTS) accepting " + accepted
                    + " bytes from offset " + taken));
            return;
        }
        op.recvId = recvId;
        op.accepted = accepted;
        op.sent = taken; // the bytes the RTS carried that the receive kept; DATA goes on from here
        Packet ahead = op.ahead;
        if (ahead != null && (taken != ahead.offset || taken == accepted)) {
            dropAhead(op); // the receive kept fewer of the RTS's bytes, or wants no more
            ahead = null;
        }
        op.ahead = null;
        // chunks overlap packing with the transfer; sent in place, a data phase the fabric carries
        // in one packet goes whole, paying the per-packet costs once
        boolean whole = accepted - taken <= wholeData && path.sendsInPlace(op);
        op.dataPacket = whole ? (int) (accepted - taken) : chunkSize;
        if (taken == accepted) {
            op.phase = SendOp.Phase.DRAINING;
            if (op.packetsOut == 0) {
                complete(op, null);
            }
        } else {
            op.phase = SendOp.Phase.SENDING_DATA;
            if (ahead != null) {
                sendAhead(op, ahead);
            }
            if (op.sent < op.accepted) {
                streaming.add(op);
            }
        }
    }

    /** The fabric released {@code p}: a send all of whose packets are back completes. */
    void onReleased(Packet p) {
        SendOp<S> op = outbox.release(p);
        if (op != null && !op.done && op.phase == SendOp.Phase.DRAINING && op.packetsOut == 0) {
            complete(op, null);
        }
    }

    /** Fails {@code op} with {@code e} (if it has not ended): nothing more of it goes, not even from the backlog. */
    void fail(SendOp<S> op, MpiException e) {
        if (op.done) {
            return;
        }
        queued.remove(op);
        streaming.remove(op);
        awaitingCts.remove(op.id);
        outbox.drop(op);
        complete(op, e);
    }

    /** Fails every send to {@code peer} with {@code e}. */
    void failTo(int peer, MpiException e) {
        failLive(false, peer, e);
    }

    /** Fails every send not yet ended with {@code e}. */
    void failAll(MpiException e) {
        failLive(true, -1, e);
    }

    private void failLive(boolean all, int peer, MpiException e) {
        for (SendOp<S> op : new ArrayList<>(live.values())) {
            if (all || op.put.target() == peer) {
                fail(op, e);
            }
        }
    }

    /** Ends {@code op}, a success if {@code error} is null, and tells its put. */
    void complete(SendOp<S> op, MpiException error) {
        op.done = true;
        dropAhead(op);
        live.remove(op.id);
        if (error == null) {
            messagesSent.add(1);
            bytesSent.add(op.accepted);
        }
        try {
            path.sendEnded(op);
        } catch (RuntimeException e) {
            LOG.error("rank {}: the data path failed ending send {}", fabric.rank(), op.id, e);
        }
        Completions.tell(op.put, new Event(Event.Kind.SEND, op.put.matchBits(), op.length, op.sent, error, false),
                fabric.rank());
    }
}
