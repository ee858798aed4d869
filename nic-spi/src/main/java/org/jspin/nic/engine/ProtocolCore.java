package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.NanoClock;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.NicConfig;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol every NIC shares, as a state machine with no threads of its own: MPI matching, the
 * eager/rendezvous protocol, probes, flow control (the packet pool, the backlog of a full link),
 * peer failure and completion. A backend supplies only the {@link DataPath}.
 *
 * <p>The protocol: a message up to the eager limit travels in one EAGER packet; if no receive is
 * posted its payload is copied aside and the packet returns to the sender. A larger message sends
 * an RTS carrying its envelope; the receiver matches it in arrival order like an eager message,
 * answers with a CTS naming the bytes it accepts, and only then do DATA packets flow, straight
 * into the matched receive. So a large message never lands unexpected, and the receiver's
 * datatype is known before its first data byte. A send completes when the fabric has released
 * every packet it sent (its buffer is then no longer read).
 *
 * <p>An RTS may carry the message's first bytes ({@link NicConfig#rtsPayload}, as Open MPI's TCP
 * transport sends its first fragment with its rendezvous request), paid for with eager credit like
 * an eager message: the receive takes them (at once if posted, else when it matches the RTS from
 * the unexpected list, where they wait as an eager payload does) and its CTS says from which
 * offset the DATA goes on. A sender short of credit sends the RTS alone. A fabric that reads
 * payloads from a socket may offer an RTS's header before its payload is in ({@link #landing});
 * if a posted receive takes the whole message, the RTS matches then and the CTS leaves at once,
 * and its payload lands in the receive's memory if the data path has it there (else it is
 * delivered once it is in). An eager message's header is offered the same way: if a posted
 * receive takes it whole into memory the data path has for it, it matches then and its payload is
 * read straight into that memory, not copied from a read buffer. A sender whose data path packs
 * ({@link DataPath#packsAhead}) packs its first DATA chunk while the CTS is on the way.
 *
 * <p>Eager messages spend credit: each rank may have at most {@link NicConfig#eagerCredit} eager
 * bytes at a peer that the peer has not yet matched to receives, and sends by rendezvous while it
 * has too little left; the peer gives credit back in CREDIT packets once its debt passes half the
 * credit ({@link EagerCredit}). So what a rank buffers for messages nobody has asked for yet is
 * bounded per sender, whatever the eager limit and however many sends are outstanding.
 *
 * <p>How it is run, after the model of an Aeron agent: commands ({@link #put}, {@link #post},
 * {@link #cancel}, {@link #probe}, ...) change the state at once, and {@link #round} does one round
 * of work (takes what the fabric delivers, sends what can be sent) and says how much it did.
 * Nothing here blocks, spins, starts a thread or reads the time except through the injected
 * {@link NanoClock}, so a test or a simulator steps a core by hand, and a driver
 * ({@link ProtocolEngine}'s) decides which thread runs it. It is not thread-safe: one thread at a
 * time may call it, and whoever hands it from one thread to another must publish its state (the
 * driver's flag does). Completions and probe results are told on the calling thread, inside the
 * command or round that produced them.
 *
 * @param <S> the data path's state per send
 * @param <R> the data path's state per receive
 */
public final class ProtocolCore<S, R> implements PacketHandler {
    /** How long a closing core waits for the sends it accepted to leave (and the driver for it to end). */
    public static final long CLOSE_DRAIN_MILLIS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolCore.class);
    /** Fabric events one round takes, so that a busy fabric cannot keep sends from going out. */
    private static final int POLL_LIMIT = 64;

    private final Fabric fabric;
    private final DataPath<S, R> path;
    private final NicConfig config;
    /** The eager limit over this fabric: the settings', else the fabric's choice ({@link NicConfig#eagerLimitOver}). */
    private final int eagerLimit;
    /** Bytes of a rendezvous message sent with its RTS (the settings', else the fabric's choice). */
    private final int rtsPayload;
    /**
     * The fabric's choice of {@link #rtsPayload} applied to packed sends too: not where packets are
     * handed over by reference (see {@link #sendRts}); a payload the settings name applies to every send.
     */
    private final boolean packedRtsPayload;
    /** A data phase up to this long of a message sent in place goes as one DATA packet ({@link Fabric#preferredWholeData}). */
    private final int wholeData;
    private final NanoClock clock;

    private final Matcher<RecvOp<R>, Unexpected> matcher = new Matcher<>();
    /** Sends not yet complete, by id. */
    private final Long2ObjectHashMap<SendOp<S>> liveSends = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SendOp<S>> awaitingCts = new Long2ObjectHashMap<>();
    /** Matched rendezvous receives whose data is flowing, by id. */
    private final Long2ObjectHashMap<RecvOp<R>> awaitingData = new Long2ObjectHashMap<>();
    /** Sends whose first packet (EAGER or RTS) is not out yet, in the order they were started. */
    private final ArrayDeque<SendOp<S>> queued = new ArrayDeque<>();
    /**
     * Sends whose RTS is out and whose first DATA chunk is to be packed while they wait for their
     * CTS ({@link DataPath#packsAhead}), in the order their RTSs left.
     */
    private final ArrayDeque<SendOp<S>> packAhead = new ArrayDeque<>();
    /** Sends streaming DATA, served round robin. */
    private final ArrayDeque<SendOp<S>> streaming = new ArrayDeque<>();
    /** Receives whose CTS is not out yet. */
    private final ArrayDeque<RecvOp<R>> ctsDue = new ArrayDeque<>();
    /** Packets the fabric refused (link full), resent in order before anything else. */
    private final ArrayDeque<Packet> backlog = new ArrayDeque<>();
    private final PacketPool pool;
    private final EagerCredit credit;
    private final WaitingProbes probes = new WaitingProbes();
    /** Whether unexpected eager payloads stay in their packets ({@link Fabric#mayHoldArrivals}). */
    private final boolean holdArrivals;
    /** Unexpected eager messages whose packets are held, released when taken or when the core is disposed. */
    private final Set<Unexpected> held = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * Unexpected RTSs whose bytes are held in their senders' own packets until the next round
     * ({@link #dropHeldRtsBytes}), unless a receive takes them before.
     */
    private final ArrayDeque<Unexpected> heldBriefly = new ArrayDeque<>();
    /**
     * RTSs matched as their headers arrived ({@link #matchEarly}), by the header's packet (the one
     * delivered once its payload is in), until {@link #onRts} takes them. By identity: no
     * allocation per entry.
     */
    private final IdentityHashMap<Packet, RecvOp<R>> matchedEarly = new IdentityHashMap<>();
    private final BitSet failedRanks = new BitSet();
    private long nextId = 1;

    private final Tally messagesSent;
    private final Tally bytesSent;
    private final Tally messagesReceived;
    private final Tally bytesReceived;
    private final Tally unexpectedBytesCopied;

    private boolean closing;
    private long closeDeadline;
    private boolean stopped;

    /**
     * A core for one rank's endpoint {@code fabric}; it registers the protocol's meters in
     * {@code meters} ({@code jspin.messages.*}, {@code jspin.bytes.*},
     * {@code jspin.unexpected.bytes.copied}, {@code jspin.packets.in.flight}).
     *
     * @param fabric the rank's endpoint; the core alone sends, polls and releases on it
     * @param path   how bytes get into packets and out of them (one implementation per core, so the
     *               calls into it stay monomorphic on the packet path)
     * @param settings the protocol settings (eager limit, chunk size, packet pool)
     * @param meters where the protocol's tallies are published
     * @param clock  the time the close deadline is measured in (nanoseconds, any origin)
     * @throws MpiException ERR_ARG if the chunk size exceeds what the fabric carries
     */
    public ProtocolCore(Fabric fabric, DataPath<S, R> path, NicConfig settings, Meters meters, NanoClock clock) {
        NicConfig config = settings.over(fabric); // the chunk size the data path was built with too
        if (config.chunkSize() > fabric.maxPayload()) {
            throw new MpiException(ErrorClass.ERR_ARG, "chunk size " + config.chunkSize()
                    + " exceeds the fabric's largest payload " + fabric.maxPayload());
        }
        this.fabric = fabric;
        this.path = path;
        this.config = config;
        this.eagerLimit = config.eagerLimitOver(fabric.preferredEagerLimit());
        int rts = config.rtsPayload() == NicConfig.FABRIC_CHOICE ? fabric.preferredRtsPayload() : config.rtsPayload();
        this.rtsPayload = Math.max(0, Math.min(rts, config.chunkSize()));
        this.packedRtsPayload = config.rtsPayload() != NicConfig.FABRIC_CHOICE || fabric.mayHoldArrivals();
        this.wholeData = Math.max(0, Math.min(fabric.preferredWholeData(), fabric.maxPayload()));
        this.credit = new EagerCredit(fabric.size(), config.eagerCredit());
        this.holdArrivals = fabric.mayHoldArrivals();
        this.clock = clock;
        this.messagesSent = meters.counter("jspin.messages.sent", "messages");
        this.bytesSent = meters.counter("jspin.bytes.sent", "bytes");
        this.messagesReceived = meters.counter("jspin.messages.received", "messages");
        this.bytesReceived = meters.counter("jspin.bytes.received", "bytes");
        this.unexpectedBytesCopied = meters.counter("jspin.unexpected.bytes.copied", "bytes");
        this.pool = new PacketPool(config.packets(), meters.gauge("jspin.packets.in.flight"));
    }

    /** @return this core's world rank (its fabric endpoint's) */
    public int rank() {
        return fabric.rank();
    }

    /** @return ranks in the job */
    public int size() {
        return fabric.size();
    }

    // ---- commands -----------------------------------------------------------------------------

    /**
     * Starts a send. Its first packet goes out in this or a later {@link #round}; the put's
     * completion is told once the fabric has released every packet of it (or at once, if the
     * target has failed or the core has stopped).
     *
     * @return the operation, for a data path or a test to look at
     */
    public SendOp<S> put(Put put) {
        SendOp<S> op = new SendOp<>(put);
        startSend(op);
        return op;
    }

    /**
     * Posts a receive: it takes the earliest unexpected message it matches at once, or waits on
     * the posted list (and fails at once if its one peer, or every other rank for a wildcard, has
     * failed).
     *
     * @return the operation, for a data path or a test to look at
     */
    public RecvOp<R> post(MatchEntry entry) {
        RecvOp<R> op = new RecvOp<>(entry);
        startReceive(op);
        return op;
    }

    /**
     * Cancels a posted receive that has not matched yet: it completes, cancelled, at once. A
     * receive that has matched is not touched.
     */
    public void cancel(MatchEntry entry) {
        RecvOp<R> r = matcher.removePosted(op -> op.entry == entry);
        if (r != null) {
            r.done = true;
            path.abandon(r); // DataPath's contract: a receive that ends early is abandoned, matched or not
            notify(r.entry, new Event(Event.Kind.RECEIVE, entry.matchBits(), 0, 0, null, true));
        }
    }

    /**
     * Looks for an unexpected message matching {@code match}/{@code ignore}, as {@link org.jspin.nic.Nic#probe}
     * describes; a waiting probe that finds none is answered when one arrives (or fails when its
     * peer does).
     */
    public void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener) {
        Unexpected u = take ? matcher.take(match, ignore) : matcher.probe(match, ignore);
        MpiException gone = u == null && wait ? gone(peer) : null;
        if (u != null) {
            listener.probed(WaitingProbes.event(u), take ? u : null);
        } else if (gone != null) {
            listener.probed(new Event(Event.Kind.PROBE, match, 0, 0, gone, false), null);
        } else if (wait) {
            probes.add(peer, match, ignore, take, listener);
        } else {
            listener.probed(null, null);
        }
    }

    /**
     * Receives a message a matched probe of this core took into {@code entry} (whose bits are ignored).
     *
     * @return the operation, for a data path or a test to look at
     * @throws MpiException ERR_REQUEST if this core's matched probe did not take {@code message}
     */
    public RecvOp<R> receiveMatched(MatchedMessage message, MatchEntry entry) {
        RecvOp<R> op = new RecvOp<>(entry);
        receiveMatched(op, taken(message));
        return op;
    }

    /** @return the message as this core's matched probe took it */
    static Unexpected taken(MatchedMessage message) {
        if (!(message instanceof Unexpected u)) {
            throw new MpiException(ErrorClass.ERR_REQUEST, "message " + message + " was not taken by this NIC's matched probe");
        }
        return u;
    }

    /** {@link #receiveMatched(MatchedMessage, MatchEntry)} with an operation made beforehand. */
    void receiveMatched(RecvOp<R> op, Unexpected u) {
        op.id = nextId++;
        consume(op, u);
    }

    /**
     * Starts closing: from now {@link #isDrained} tells when the sends accepted so far have left,
     * or when the drain deadline ({@value #CLOSE_DRAIN_MILLIS} ms on the injected clock) has passed.
     */
    public void beginClose() {
        closing = true;
        closeDeadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_DRAIN_MILLIS);
    }

    /**
     * @return whether, after {@link #beginClose}, nothing is left to send (or the drain deadline has
     *         passed: the core may stop with sends still in flight); false before {@link #beginClose}
     */
    public boolean isDrained() {
        if (!closing) {
            return false;
        }
        if (liveSends.isEmpty() && backlog.isEmpty() && ctsDue.isEmpty()) {
            return true;
        }
        if (clock.nanoTime() > closeDeadline) {
            LOG.warn("rank {}: closing with {} sends still in flight", rank(), liveSends.size());
            return true;
        }
        return false;
    }

    /**
     * Fails whatever is still pending (sends, receives, waiting probes) with ERR_OTHER: the NIC
     * closed. Operations started afterwards fail at once. Then {@link #dispose}.
     */
    public void stop() {
        stopped = true;
        MpiException closed = new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC closed");
        for (SendOp<S> op : new ArrayList<>(liveSends.values())) {
            failSend(op, closed);
        }
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            failReceive(r, closed);
        }
        for (RecvOp<R> r : matchedEarly.values()) {
            failReceive(r, closed); // an eager header's (an RTS's are awaiting data): done, whatever comes
        }
        RecvOp<R> r;
        while ((r = matcher.removePosted(op -> true)) != null) {
            failReceive(r, closed);
        }
        probes.failAll(closed);
    }

    /** Leaves the fabric (peers see this rank as gone) and frees what the data path holds; after {@link #stop}. */
    public void dispose() {
        for (Unexpected u : new ArrayList<>(held)) {
            releaseHeld(u); // messages nobody took: their packets' buffers go back before the fabric closes
        }
        try {
            fabric.close();
        } finally {
            path.close();
        }
    }

    // ---- one round ----------------------------------------------------------------------------

    /**
     * One round of work: whatever can be sent now (the backlog first, then CTSs, new messages, data
     * chunks, as far as the packet pool and the fabric allow), then what the fabric delivers
     * (arrivals, released packets, departed peers, at most a bounded number), then whatever that
     * made sendable.
     *
     * @return units of work done; 0 when there was nothing to do
     */
    public int round() {
        int work = heldBriefly.isEmpty() ? 0 : dropHeldRtsBytes();
        // sends first: a message just put goes out before this round's poll (a system call on a
        // socket fabric), which would otherwise sit on every small message's path
        work += pump();
        work += fabric.poll(this, POLL_LIMIT) + pump();
        fabric.flush();
        return work;
    }

    /**
     * @return whether work is left that no fabric event will announce (a backlog, sends not out
     *         yet, CTSs due): whoever drives the core must come back for it
     */
    public boolean hasPendingWork() {
        return !backlog.isEmpty() || !queued.isEmpty() || !ctsDue.isEmpty() || credit.hasDue()
                || !heldBriefly.isEmpty();
    }

    // ---- sending ------------------------------------------------------------------------------

    /** {@link #put} with an operation made beforehand (on the caller's thread, by the driver's facade). */
    void startSend(SendOp<S> op) {
        op.id = nextId++;
        int target = op.put.target();
        if (stopped) {
            complete(op, new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC is closed"));
            return;
        }
        if (failedRanks.get(target)) {
            complete(op, peerFailed(target));
            return;
        }
        liveSends.put(op.id, op);
        try {
            path.sendStarted(op);
        } catch (RuntimeException e) {
            failSend(op, asMpi(e, "setting up the send")); // fails the send, never strands it
            return;
        }
        queued.add(op);
    }

    /** Sends what can be sent now. */
    private int pump() {
        int work = 0;
        while (!backlog.isEmpty()) {
            Packet p = backlog.peek();
            if (!transmitNow(p)) {
                return work;
            }
            backlog.poll();
            work++;
        }
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
            failSend(op, asMpi(e, "packing the eager message"));
            return;
        }
        op.sent = op.length;
        transmit(op, p);
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
        if (!backlog.isEmpty() || path.sendsInPlace(op) || !fabric.claim(p, len)) {
            return 0;
        }
        try {
            if (path.fillLent(op, offset, len, p)) {
                return 1;
            }
        } catch (RuntimeException e) {
            fabric.abandon(p);
            pool.free(p);
            failSend(op, asMpi(e, "packing bytes from " + offset));
            return -1;
        }
        fabric.abandon(p);
        return 0;
    }

    /** Gives {@code peer} back the eager credit for the bytes taken from it since the last time. */
    private void sendCredit(int peer, Packet p) {
        p.kind = PacketKind.CREDIT;
        p.target = peer;
        p.messageLength = credit.settle(peer);
        p.owner = null;
        transmit(p);
    }

    private void sendRts(SendOp<S> op, Packet p) {
        header(op, p, PacketKind.RTS);
        int target = op.put.target();
        // where packets are handed over by reference, a receive posted late drops the RTS's bytes
        // (see unexpected) and asks for them again: free for a send in place, a second pack for a
        // packed one, which by the fabric's choice sends its RTS alone there and packs its first
        // chunk while the CTS comes
        int first = packedRtsPayload || path.sendsInPlace(op) ? (int) Math.min(rtsPayload, op.length) : 0;
        if (first > 0 && credit.canSpend(target, first)) {
            try {
                path.fill(op, 0, first, p);
            } catch (RuntimeException e) {
                pool.free(p);
                failSend(op, asMpi(e, "packing the bytes sent with the RTS"));
                return;
            }
            credit.spend(target, first);
            op.withRts = first;
        }
        op.phase = SendOp.Phase.AWAITING_CTS;
        awaitingCts.put(op.id, op);
        transmit(op, p);
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
        int len = (int) Math.min(config.chunkSize(), op.length - op.withRts);
        if (fillData(op, p, op.withRts, len)) {
            op.ahead = p;
        }
    }

    /** Sends the chunk packed ahead, cut to what the receive accepted. */
    private void sendAhead(SendOp<S> op, Packet p) {
        int len = (int) Math.min(p.payloadLength, op.accepted - op.sent);
        p.payloadLength = len; // the packed bytes are positional: a prefix is the shorter chunk
        p.recvId = op.recvId;
        op.sent += len;
        if (op.sent == op.accepted) {
            op.phase = SendOp.Phase.DRAINING;
        }
        transmit(op, p);
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
        op.sent += len;
        if (op.sent == op.accepted) {
            op.phase = SendOp.Phase.DRAINING;
        }
        transmit(op, p);
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
            failSend(op, asMpi(e, "packing bytes from " + offset));
            return false;
        }
    }

    private void dataHeader(SendOp<S> op, Packet p, long offset) {
        p.kind = PacketKind.DATA;
        p.target = op.put.target();
        p.sendId = op.id;
        p.recvId = op.recvId; // 0 for a chunk packed ahead: set when its CTS names the receive
        p.offset = offset;
    }

    private void header(SendOp<S> op, Packet p, PacketKind kind) {
        p.kind = kind;
        p.target = op.put.target();
        p.matchBits = op.put.matchBits();
        p.sendId = op.id;
        p.messageLength = op.length;
        p.signatureHash = op.signatureHash;
        p.signatureElements = op.signatureElements;
    }

    private void transmit(SendOp<S> op, Packet p) {
        p.owner = op;
        op.packetsOut++;
        transmit(p);
    }

    private void transmit(Packet p) {
        if (!backlog.isEmpty() || !transmitNow(p)) {
            backlog.add(p);
        }
    }

    /** @return false if the link is full (the packet stays the caller's) */
    private boolean transmitNow(Packet p) {
        try {
            return fabric.send(p);
        } catch (RuntimeException e) {
            // the peer is gone (or the fabric could not take the packet): the packet will never come
            // back, so release it here, and fail only the send it belonged to, never the core
            // fail the send before its packet counts as released: released last, an eager send (or
            // a last DATA chunk) would complete as a success first
            SendOp<S> op = ownerOf(p);
            if (op != null) {
                failSend(op, asMpi(e, "sending to rank " + op.put.target()));
            }
            onReleased(p);
            return true;
        }
    }

    @Override
    public void onReleased(Packet p) {
        SendOp<S> op = release(p);
        if (op != null && !op.done && op.phase == SendOp.Phase.DRAINING && op.packetsOut == 0) {
            complete(op, null);
        }
    }

    /** Gives a packet back to the pool (and its staging to the data path). @return its send, or null */
    private SendOp<S> release(Packet p) {
        SendOp<S> op = ownerOf(p);
        if (op != null) {
            path.released(p);
            op.packetsOut--;
        }
        pool.free(p);
        return op;
    }

    /**
     * Takes the packets {@code unsendable} names out of the backlog, unsent, and back to the pool: a
     * failed send's (its receiver must not get part of a message its sender reports failed) and a
     * departed rank's (a dead peer's full ring would otherwise hold the packets behind them too).
     */
    private void dropFromBacklog(Predicate<Packet> unsendable) {
        for (Iterator<Packet> it = backlog.iterator(); it.hasNext(); ) {
            Packet p = it.next();
            if (unsendable.test(p)) {
                it.remove();
                release(p);
            }
        }
    }

    /** @return the send a packet of this core's belongs to, or null (a CTS) */
    @SuppressWarnings("unchecked") // only this core's sends are packet owners
    private SendOp<S> ownerOf(Packet p) {
        return p.owner instanceof SendOp<?> op ? (SendOp<S>) op : null;
    }

    private void onCts(Packet p) {
        SendOp<S> op = awaitingCts.remove(p.sendId);
        long accepted = p.messageLength;
        long taken = p.offset;
        long recvId = p.recvId;
        fabric.release(p);
        if (op == null || op.done) {
            return;
        }
        if (accepted > op.length || taken < 0 || taken > Math.min(op.withRts, accepted)) {
            failSend(op, new MpiException(ErrorClass.ERR_OTHER, "rank " + op.put.target() + " answered send " + op.id
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
        op.dataPacket = whole ? (int) (accepted - taken) : config.chunkSize();
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

    private void failSend(SendOp<S> op, MpiException e) {
        if (op.done) {
            return;
        }
        queued.remove(op);
        streaming.remove(op);
        awaitingCts.remove(op.id);
        if (op.packetsOut > 0 && !backlog.isEmpty()) {
            dropFromBacklog(p -> p.owner == op);
        }
        complete(op, e);
    }

    private void complete(SendOp<S> op, MpiException error) {
        op.done = true;
        dropAhead(op);
        liveSends.remove(op.id);
        if (error == null) {
            messagesSent.add(1);
            bytesSent.add(op.accepted);
        }
        try {
            path.sendEnded(op);
        } catch (RuntimeException e) {
            LOG.error("rank {}: the data path failed ending send {}", rank(), op.id, e);
        }
        notify(op.put, new Event(Event.Kind.SEND, op.put.matchBits(), op.length, op.sent, error, false));
    }

    // ---- receiving ----------------------------------------------------------------------------

    /** {@link #post} with an operation made beforehand (on the caller's thread, by the driver's facade). */
    void startReceive(RecvOp<R> op) {
        op.id = nextId++;
        if (stopped) {
            failReceive(op, new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC is closed"));
            return;
        }
        Unexpected u = matcher.post(op.entry.matchBits(), op.entry.ignoreBits(), op);
        MpiException gone = u == null ? gone(op.entry.peer()) : null;
        if (u != null) {
            consume(op, u);
        } else if (gone != null) {
            matcher.removePosted(r -> r == op);
            failReceive(op, gone);
        }
    }

    @Override
    public void onPacket(Packet p) {
        try {
            switch (p.kind) {
                case EAGER -> onEager(p);
                case RTS -> onRts(p);
                case CTS -> onCts(p);
                case DATA -> onData(p);
                case CREDIT -> onCredit(p);
            }
        } catch (RuntimeException e) {
            LOG.error("rank {}: failed handling {}", rank(), p, e);
        }
    }

    private void onCredit(Packet p) {
        credit.returned(p.source, p.messageLength);
        fabric.release(p);
    }

    private void onEager(Packet p) {
        RecvOp<R> early = matchedEarly.isEmpty() ? null : matchedEarly.remove(p);
        if (early != null) {
            finishEagerMatchedEarly(early, p);
            return;
        }
        RecvOp<R> r = matcher.matchPosted(p.matchBits);
        if (r != null) {
            credit.taken(p.source, p.messageLength);
            try {
                matched(r, p.source, p.matchBits, p.messageLength, p.signatureHash, p.signatureElements);
                finishEager(r, p.payload, p.payloadOffset);
            } finally {
                fabric.release(p);
            }
            return;
        }
        arrivedUnexpected(unexpected(PacketKind.EAGER, p));
    }

    /**
     * An eager message or RTS nobody has asked for yet, with the payload it carries; takes over
     * the packet (held, or released once its payload is copied out). An RTS's payload in a packet
     * that is the sender's own (the in-JVM fabric, or a send to self) is not copied: the packet is
     * held until the next round, whose commands come first, in case the receive is being posted
     * (the caller of a rank whose send completed in this round, say: in the in-JVM 64 KiB ping-pong
     * a third of the RTSs came just before it); then it goes back with those bytes dropped. The
     * sender keeps them until the CTS, whose offset 0 asks for them again, and their eager credit
     * goes back with the packet. So the sender's packets are never held for long.
     */
    private Unexpected unexpected(PacketKind kind, Packet p) {
        Unexpected u;
        boolean hold = p.payloadLength > 0 && holdArrivals && p.source != rank();
        if (kind == PacketKind.RTS && p.payloadLength > 0 && !hold) {
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, p.payload, p.payloadOffset, p.payloadLength, p);
            held.add(u);
            heldBriefly.add(u);
        } else if (hold) {
            // the payload stays in the packet until a receive takes it: no allocation, no copy;
            // eager credit bounds how much of it a sender can leave here
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, p.payload, p.payloadOffset, p.payloadLength, p);
            held.add(u);
        } else {
            MemorySegment copy = null;
            if (p.payloadLength > 0) {
                copy = MemorySegment.ofArray(new byte[p.payloadLength]);
                MemorySegment.copy(p.payload, p.payloadOffset, copy, 0, p.payloadLength);
                unexpectedBytesCopied.add(p.payloadLength);
            }
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, copy, 0, p.payloadLength, null);
            fabric.release(p);
        }
        return u;
    }

    private void onRts(Packet p) {
        RecvOp<R> early = matchedEarly.isEmpty() ? null : matchedEarly.remove(p);
        if (early != null) {
            try {
                if (early.landingWithRts > 0 && !early.done) {
                    takeEarlyRtsPayload(early, p);
                }
            } finally {
                early.landingWithRts = 0;
                fabric.release(p);
            }
            return;
        }
        RecvOp<R> r = matcher.matchPosted(p.matchBits);
        if (r == null) {
            arrivedUnexpected(unexpected(PacketKind.RTS, p));
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
     * The payload of an RTS matched at its header, now in: landed in the receive's memory, or in a
     * read buffer to be delivered (unpacked) from. Its CTS is out already, so a receive that cannot
     * take these bytes fails here, as one that cannot take a DATA chunk does.
     */
    private void takeEarlyRtsPayload(RecvOp<R> r, Packet p) {
        if (!p.placed) {
            try {
                path.deliver(r, 0, p.payload, p.payloadOffset, p.payloadLength);
            } catch (RuntimeException e) {
                awaitingData.remove(r.id);
                failReceive(r, asMpi(e, "unpacking the bytes sent with the RTS"));
                return;
            }
        }
        r.delivered += p.payloadLength;
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
                r.error = asMpi(e, "unpacking the bytes sent with the RTS");
            }
        }
        if (r.accepted > 0) {
            path.abandon(r);
        }
        r.accepted = 0;
        r.delivered = 0;
    }

    /**
     * A DATA chunk may be written straight into its receive's memory when the data path has it
     * there ({@link DataPath#landing}); only for a chunk of a live receive from the peer it
     * matched, and wholly inside the bytes that receive accepted. An RTS's or an eager message's
     * header may match a posted receive here ({@link #matchEarly}, {@link #matchEagerEarly}).
     */
    @Override
    public MemorySegment landing(Packet h) {
        if (h.kind == PacketKind.RTS) {
            return matchEarly(h);
        }
        if (h.kind == PacketKind.EAGER) {
            return matchEagerEarly(h);
        }
        if (h.kind != PacketKind.DATA) {
            return null;
        }
        RecvOp<R> r = awaitingData.get(h.recvId);
        if (r == null || r.done || h.source != r.source || h.sendId != r.peerSendId || h.offset < 0
                || h.payloadLength > r.accepted - r.delivered || h.offset > r.accepted - h.payloadLength) {
            return null; // delivered as usual, where onData deals with whatever is wrong
        }
        return path.landing(r, h.offset, h.payloadLength);
    }

    /**
     * An RTS whose header has arrived, every packet before it delivered (the fabric calls
     * {@link #landing} for an RTS only then, so matching it now keeps MPI's order): if the first
     * posted receive it matches takes the whole message, the RTS matches now and its CTS is due at
     * once. If the data path has that receive's memory for the payload, the payload lands there as
     * it arrives; otherwise (a receive the CPU unpacks) it is read into a read buffer and delivered
     * when the RTS is in. Either way the sender's DATA does not wait for that payload to be read
     * and unpacked. Anything else (no receive posted, a truncating or mismatched one) is left to
     * {@link #onRts}, as before.
     */
    private MemorySegment matchEarly(Packet h) {
        int n = h.payloadLength;
        RecvOp<R> r = n > 0 && n < h.messageLength ? postedTakingWhole(h) : null;
        if (r == null) {
            return null;
        }
        MemorySegment place = path.landing(r, 0, n); // null: delivered from a read buffer
        matcher.matchPosted(h.matchBits); // takes r, the receive just looked at
        matched(r, h.source, h.matchBits, h.messageLength, h.signatureHash, h.signatureElements);
        credit.taken(h.source, n);
        matchedEarly.put(h, r);
        boolean takesIt = r.accepted == h.messageLength; // false only if setting up the receive failed
        if (takesIt) {
            r.landingWithRts = n;
        }
        acceptRendezvous(r, h.sendId);
        return takesIt ? place : null;
    }

    /**
     * An eager message whose header has arrived, every packet before it delivered (as for an RTS):
     * if the first posted receive it matches takes the whole message into memory the data path
     * has for it (a contiguous receive), it matches now and the payload is read straight into
     * that memory; {@link #onEager} then completes the receive with nothing left to copy. Anything
     * else (no receive posted, a truncating or mismatched one, a receive the CPU unpacks, which
     * gains nothing from matching early) is matched when the packet is delivered, as before.
     */
    private MemorySegment matchEagerEarly(Packet h) {
        int n = h.payloadLength;
        RecvOp<R> r = n > 0 && n == h.messageLength ? postedTakingWhole(h) : null;
        MemorySegment place = r == null ? null : path.landing(r, 0, n);
        if (place == null) {
            return null;
        }
        matcher.matchPosted(h.matchBits); // takes r, the receive just looked at
        credit.taken(h.source, n);
        matched(r, h.source, h.matchBits, h.messageLength, h.signatureHash, h.signatureElements);
        matchedEarly.put(h, r);
        return r.accepted == n ? place : null; // otherwise setting up the receive failed: onEager reports it
    }

    /**
     * @return the first posted receive the message of header {@code h} matches, if it takes the whole
     *         message (no truncation, no signature mismatch) from a live peer, else null; nothing is
     *         taken from the posted list
     */
    private RecvOp<R> postedTakingWhole(Packet h) {
        if (stopped || h.source < 0 || h.source >= size() || failedRanks.get(h.source)) {
            return null;
        }
        RecvOp<R> r = matcher.peekPosted(h.matchBits);
        if (r == null || Acceptance.refusal(r.entry, r.capacity, h.matchBits, h.messageLength, h.signatureHash,
                h.signatureElements) != null) {
            return null;
        }
        return r;
    }

    /** The eager message {@link #matchEagerEarly} matched: its payload is in the receive's memory, or in {@code p}. */
    private void finishEagerMatchedEarly(RecvOp<R> r, Packet p) {
        try {
            if (r.done) {
                return; // failed meanwhile (its peer, or this NIC, stopped)
            }
            if (p.placed) {
                r.delivered = r.accepted;
                finishReceive(r);
            } else {
                finishEager(r, p.payload, p.payloadOffset);
            }
        } finally {
            fabric.release(p);
        }
    }

    private void onData(Packet p) {
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
            awaitingData.remove(r.id);
            failReceive(r, asMpi(e, "unpacking bytes from " + p.offset));
            return;
        } finally {
            fabric.release(p);
        }
        r.delivered += length;
        if (r.delivered == r.accepted) {
            awaitingData.remove(r.id);
            finishReceive(r);
        }
    }

    /** A matched probe's message, or one found on the unexpected list when the receive was posted. */
    private void consume(RecvOp<R> r, Unexpected u) {
        r.fromOverflow = u.kind == PacketKind.EAGER;
        matched(r, u.source, u.bits, u.length, u.signatureHash, u.signatureElements);
        if (u.kind == PacketKind.EAGER) {
            credit.taken(u.source, u.length);
            try {
                finishEager(r, u.data, u.dataOffset);
            } finally {
                releaseHeld(u);
            }
        } else {
            if (u.dataBytes > 0) {
                credit.taken(u.source, u.dataBytes);
                try {
                    takeRtsPayload(r, u.data, u.dataOffset, u.dataBytes);
                } finally {
                    releaseHeld(u);
                }
            }
            acceptRendezvous(r, u.sendId);
        }
    }

    /**
     * Drops the bytes of the unexpected RTSs held since an earlier round (see {@link #unexpected}),
     * giving their packets back and their credit; those a receive took meanwhile are only forgotten.
     *
     * @return packets given back
     */
    private int dropHeldRtsBytes() {
        int dropped = 0;
        Unexpected u;
        while ((u = heldBriefly.poll()) != null) {
            if (u.held != null) {
                credit.taken(u.source, u.dataBytes);
                u.dropData();
                releaseHeld(u);
                dropped++;
            }
        }
        return dropped;
    }

    /** Gives a held unexpected message's packet back to the fabric. */
    private void releaseHeld(Unexpected u) {
        Packet p = u.held;
        if (p != null) {
            u.held = null;
            held.remove(u);
            fabric.release(p);
        }
    }

    private void arrivedUnexpected(Unexpected u) {
        matcher.addUnexpected(u.bits, u);
        if (!probes.isEmpty()) {
            probes.arrived(u, matcher);
        }
    }

    /** Records the match and decides how many bytes the receive takes (truncation, signature). */
    private void matched(RecvOp<R> r, int source, long bits, long length, long hash, long elements) {
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
                r.error = asMpi(ex, "setting up the receive");
                r.accepted = 0; // nothing is delivered: the receive completes with this error
            }
        }
    }

    private void finishEager(RecvOp<R> r, MemorySegment src, long srcOffset) {
        try {
            if (r.accepted > 0) {
                path.deliver(r, 0, src, srcOffset, r.accepted);
                r.delivered = r.accepted;
            }
        } catch (RuntimeException ex) {
            failReceive(r, asMpi(ex, "unpacking the eager message"));
            return;
        }
        finishReceive(r);
    }

    private void acceptRendezvous(RecvOp<R> r, long sendId) {
        r.peerSendId = sendId;
        if (failedRanks.get(r.source)) {
            failReceive(r, peerFailed(r.source));
            return;
        }
        ctsDue.add(r);
        if (r.delivered < r.accepted) {
            awaitingData.put(r.id, r);
        }
    }

    private void sendCts(RecvOp<R> r, Packet p) {
        p.kind = PacketKind.CTS;
        p.target = r.source;
        p.sendId = r.peerSendId;
        p.recvId = r.id;
        p.messageLength = r.accepted;
        p.offset = r.delivered + r.landingWithRts; // what the RTS brought: DATA goes on from there
        p.owner = null;
        transmit(p);
        if (r.delivered == r.accepted && !r.done) {
            finishReceive(r); // all there with the RTS, or nothing will flow (type mismatch, empty receive)
        }
    }

    private void finishReceive(RecvOp<R> r) {
        try {
            if (r.accepted > 0) {
                path.finish(r);
            }
        } catch (RuntimeException ex) {
            failReceive(r, asMpi(ex, "unpacking the staged message"));
            return;
        }
        r.done = true;
        messagesReceived.add(1);
        bytesReceived.add(r.delivered);
        notify(r.entry, new Event(Event.Kind.RECEIVE, r.messageBits, r.messageBytes, r.delivered, r.error, false));
    }

    private void failReceive(RecvOp<R> r, MpiException e) {
        if (r.done) {
            return;
        }
        r.done = true;
        path.abandon(r);
        long bits = r.source >= 0 ? r.messageBits : r.entry.matchBits();
        notify(r.entry, new Event(Event.Kind.RECEIVE, bits, r.messageBytes, r.delivered, e, false));
    }

    // ---- failures -----------------------------------------------------------------------------

    @Override
    public void onPeerFailed(int peer, String reason) {
        if (failedRanks.get(peer)) {
            return;
        }
        failedRanks.set(peer);
        LOG.debug("rank {}: peer {} gone: {}", rank(), peer, reason);
        MpiException e = peerFailed(peer);
        for (SendOp<S> op : new ArrayList<>(liveSends.values())) {
            if (op.put.target() == peer) {
                failSend(op, e);
            }
        }
        dropFromBacklog(p -> p.target == peer); // what is left: CTSs and credit for it
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            if (r.source == peer) {
                awaitingData.remove(r.id);
                failReceive(r, e);
            }
        }
        ctsDue.removeIf(r -> r.source == peer && failAndTrue(r, e));
        // their packets will not come; a receive an eager header matched waits nowhere else
        matchedEarly.values().removeIf(r -> r.source == peer && failAndTrue(r, e));
        boolean nobodyLeft = failedRanks.cardinality() >= size() - 1;
        RecvOp<R> r;
        while ((r = matcher.removePosted(op -> op.entry.peer() == peer || (nobodyLeft && op.entry.peer() < 0))) != null) {
            failReceive(r, e);
        }
        probes.fail(peer, nobodyLeft, e);
    }

    private boolean failAndTrue(RecvOp<R> r, MpiException e) {
        awaitingData.remove(r.id);
        failReceive(r, e);
        return true;
    }

    /**
     * @return why nothing can come from {@code peer} (-1: any rank) any more, or null if something
     *         still can: a wildcard waits as long as some other rank is alive, as in
     *         {@link #onPeerFailed} (which fails the wildcards already waiting when the last one goes)
     */
    private MpiException gone(int peer) {
        if (peer >= 0) {
            return failedRanks.get(peer) ? peerFailed(peer) : null;
        }
        if (size() > 1 && failedRanks.cardinality() >= size() - 1) {
            return new MpiException(ErrorClass.ERR_PROC_FAILED, "every other rank (" + failedRanks
                    + ") has failed or left the job");
        }
        return null;
    }

    private MpiException peerFailed(int peer) {
        return new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + peer + " has failed or left the job");
    }

    // ---- packets ------------------------------------------------------------------------------

    private void notify(Object op, Event e) {
        try {
            if (op instanceof Put put) {
                put.completion().completed(e);
            } else {
                ((MatchEntry) op).completion().completed(e);
            }
        } catch (RuntimeException ex) {
            LOG.error("rank {}: a completion callback failed", rank(), ex);
        }
    }

    private static MpiException asMpi(RuntimeException e, String doing) {
        if (e instanceof MpiException m) {
            return m;
        }
        return new MpiException(ErrorClass.ERR_INTERN, "failed " + doing + ": " + e);
    }

}
