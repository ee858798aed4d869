package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

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
 * <p>The core is the conductor: it runs the commands and the round and hands each fabric event to
 * the part that owns it: the {@link Sender} (sends, from their first packet to their completion),
 * the {@link Receiver} (a handler per packet kind, and receives), the {@link Outbox} (packets out,
 * the backlog of a full link), the {@link UnexpectedMessages}, {@link EarlyMatch} (where an arriving
 * payload lands) and {@link PeerFailure} (what a departed rank ends).
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
    private final NanoClock clock;
    private final Matcher<RecvOp<R>, Unexpected> matcher = new Matcher<>();
    private final WaitingProbes probes = new WaitingProbes();
    private final EagerCredit credit;
    private final Outbox<S> outbox;
    private final Sender<S> sender;
    private final UnexpectedMessages unexpected;
    private final Receiver<R> receiver;
    private final EarlyMatch<R> early;
    private final PeerFailure peers;
    private long nextId = 1;

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
        this.clock = clock;
        this.credit = new EagerCredit(fabric.size(), config.eagerCredit());
        PacketPool pool = new PacketPool(config.packets(), meters.gauge("jspin.packets.in.flight"));
        BitSet failedRanks = new BitSet();
        this.outbox = new Outbox<>(fabric, pool, path);
        this.sender = new Sender<>(fabric, path, pool, outbox, credit, SendLimits.of(config, fabric), meters);
        outbox.lossesTo(sender);
        this.unexpected = new UnexpectedMessages(fabric, matcher, probes, credit, meters);
        this.receiver = new Receiver<>(fabric, path, pool, outbox, matcher, unexpected, credit, failedRanks, meters);
        this.early = new EarlyMatch<>(path, matcher, receiver, credit, failedRanks, fabric.size());
        this.peers = new PeerFailure(failedRanks, fabric.rank(), fabric.size(), sender, outbox, receiver, early, probes);
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

    /** {@link #put} with an operation made beforehand (on the caller's thread, by the driver's facade). */
    void startSend(SendOp<S> op) {
        op.id = nextId++;
        int target = op.put.target();
        if (stopped) {
            sender.complete(op, closed("is closed"));
        } else if (peers.hasFailed(target)) {
            sender.complete(op, PeerFailure.failure(target));
        } else {
            sender.start(op);
        }
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

    /** {@link #post} with an operation made beforehand (on the caller's thread, by the driver's facade). */
    void startReceive(RecvOp<R> op) {
        op.id = nextId++;
        if (stopped) {
            receiver.fail(op, closed("is closed"));
            return;
        }
        Unexpected u = matcher.post(op.entry.matchBits(), op.entry.ignoreBits(), op);
        MpiException gone = u == null ? peers.gone(op.entry.peer()) : null;
        if (u != null) {
            receiver.consume(op, u);
        } else if (gone != null) {
            matcher.removePosted(r -> r == op);
            receiver.fail(op, gone);
        }
    }

    /**
     * Cancels a posted receive that has not matched yet: it completes, cancelled, at once. A
     * receive that has matched is not touched.
     */
    public void cancel(MatchEntry entry) {
        RecvOp<R> r = matcher.removePosted(op -> op.entry == entry);
        if (r != null) {
            receiver.cancelled(r);
        }
    }

    /**
     * Looks for an unexpected message matching {@code match}/{@code ignore}, as {@link org.jspin.nic.Nic#probe}
     * describes; a waiting probe that finds none is answered when one arrives (or fails when its
     * peer does).
     */
    public void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener) {
        Unexpected u = take ? matcher.take(match, ignore) : matcher.probe(match, ignore);
        MpiException gone = u == null && wait ? peers.gone(peer) : null;
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
        receiver.consume(op, u);
    }

    // ---- closing ------------------------------------------------------------------------------

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
        if (sender.isIdle() && outbox.isEmpty() && !receiver.hasCtsDue()) {
            return true;
        }
        if (clock.nanoTime() > closeDeadline) {
            LOG.warn("rank {}: closing with {} sends still in flight", rank(), sender.inFlight());
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
        MpiException closed = closed("closed");
        sender.failAll(closed);
        receiver.failAwaitingData(closed);
        early.failAll(closed);
        receiver.failPosted(op -> true, closed);
        probes.failAll(closed);
    }

    /** @return ERR_OTHER: this rank's NIC {@code what} ("closed", "is closed") */
    private MpiException closed(String what) {
        return new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC " + what);
    }

    /** Leaves the fabric (peers see this rank as gone) and frees what the data path holds; after {@link #stop}. */
    public void dispose() {
        unexpected.releaseAll(); // messages nobody took: their packets' buffers go back before the fabric closes
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
        int work = unexpected.holdsBriefly() ? unexpected.dropHeldBriefly() : 0;
        // sends first: a message just put goes out before this round's poll (a system call on a
        // socket fabric), which would otherwise sit on every small message's path
        work += pump();
        work += fabric.poll(this, POLL_LIMIT) + pump();
        fabric.flush();
        return work;
    }

    /** Sends what can be sent now: the backlog, then (if it is gone) CTSs and CREDITs, then the sends. */
    private int pump() {
        int work = outbox.resend();
        if (!outbox.isEmpty()) {
            return work; // the link is still full
        }
        return work + receiver.pump() + sender.pump();
    }

    /**
     * @return whether work is left that no fabric event will announce (a backlog, sends not out
     *         yet, CTSs due): whoever drives the core must come back for it
     */
    public boolean hasPendingWork() {
        return !outbox.isEmpty() || sender.hasQueued() || receiver.hasCtsDue() || credit.hasDue()
                || unexpected.holdsBriefly();
    }

    // ---- the fabric's events ------------------------------------------------------------------

    @Override
    public void onPacket(Packet p) {
        try {
            switch (p.kind) {
                case EAGER -> receiver.onEager(p, early.claim(p));
                case RTS -> receiver.onRts(p, early.claim(p));
                case CTS -> sender.onCts(p);
                case DATA -> receiver.onData(p);
                case CREDIT -> receiver.onCredit(p);
            }
        } catch (RuntimeException e) {
            LOG.error("rank {}: failed handling {}", rank(), p, e);
        }
    }

    @Override
    public void onReleased(Packet p) {
        sender.onReleased(p);
    }

    /**
     * A DATA chunk may be written straight into its receive's memory when the data path has it
     * there ({@link DataPath#landing}); an RTS's or an eager message's header may match a posted
     * receive here, unless the core has stopped ({@link EarlyMatch}).
     */
    @Override
    public MemorySegment landing(Packet h) {
        return switch (h.kind) {
            case DATA -> early.data(h);
            case RTS -> stopped ? null : early.rts(h);
            case EAGER -> stopped ? null : early.eager(h);
            default -> null;
        };
    }

    @Override
    public void onPeerFailed(int peer, String reason) {
        peers.onPeerFailed(peer, reason);
    }
}
