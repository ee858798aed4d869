package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.SignatureHash;
import org.jspin.datatype.Signatures;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.MatchBits;
import org.jspin.nic.match.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every NIC shares: MPI matching, the eager/rendezvous protocol, flow control and
 * completion, run by one progress thread per rank that owns all of this state (no locks; callers
 * hand work over through a queue). A backend supplies only the {@link DataPath}.
 *
 * <p>The protocol: a message up to the eager limit travels in one EAGER packet; if no receive is
 * posted its payload is copied aside and the packet returns to the sender. A larger message sends
 * an RTS carrying its envelope; the receiver matches it in arrival order like an eager message,
 * answers with a CTS naming the bytes it accepts, and only then do DATA packets flow, straight
 * into the matched receive. So a large message never lands unexpected, and the receiver's
 * datatype is known before its first data byte. A send completes when the fabric has released
 * every packet it sent (its buffer is then no longer read).
 *
 * <p>Who runs the engine: the progress thread, or a caller waiting on a request
 * ({@link #progress()}), whichever holds the {@code driving} flag; one at a time, so the state
 * still has a single owner at any moment and needs no locks, and the flag's acquire/release
 * hands it over safely. A waiting caller driving the engine itself saves the hand-offs to and
 * from the progress thread that otherwise dominate small-message latency.
 */
public final class ProtocolEngine<S, R> implements Nic, PacketHandler, Progress.Work {
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolEngine.class);
    private static final int POLL_LIMIT = 64;
    /**
     * How long the progress thread of a poll-driven fabric parks while callers drive (they poll the
     * fabric; when the last one stops, the progress thread must take over within this).
     */
    private static final long DRIVEN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(1000);
    /**
     * How long after a caller's last round the progress thread of a poll-driven fabric still keeps
     * out of the fabric: callers that send and wait in quick succession drive it themselves, and a
     * progress thread blocked in the fabric would have to be woken for each of them
     * ({@code -Djspin.progress.quiet.us}).
     */
    private static final long QUIET_NANOS = Long.getLong("jspin.progress.quiet.us", 2000) * 1000;
    private static final long CLOSE_DRAIN_MILLIS = 10_000;

    private final String backend;
    private final Fabric fabric;
    private final DataPath<S, R> path;
    private final NicConfig config;
    private final Progress progress;

    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final Matcher<RecvOp<R>, Unexpected> matcher = new Matcher<>();
    /** Sends not yet complete, by id. */
    private final Long2ObjectHashMap<SendOp<S>> liveSends = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SendOp<S>> awaitingCts = new Long2ObjectHashMap<>();
    /** Matched rendezvous receives whose data is flowing, by id. */
    private final Long2ObjectHashMap<RecvOp<R>> awaitingData = new Long2ObjectHashMap<>();
    /** Sends whose first packet (EAGER or RTS) is not out yet, in the order they were started. */
    private final ArrayDeque<SendOp<S>> queued = new ArrayDeque<>();
    /** Sends streaming DATA, served round robin. */
    private final ArrayDeque<SendOp<S>> streaming = new ArrayDeque<>();
    /** Receives whose CTS is not out yet. */
    private final ArrayDeque<RecvOp<R>> ctsDue = new ArrayDeque<>();
    /** Packets the fabric refused (link full), resent in order before anything else. */
    private final ArrayDeque<Packet> backlog = new ArrayDeque<>();
    private final PacketPool pool;
    private final List<PendingProbe> probes = new ArrayList<>();
    private final BitSet failedRanks = new BitSet();
    private long nextId = 1;

    private final Tally messagesSent;
    private final Tally bytesSent;
    private final Tally messagesReceived;
    private final Tally bytesReceived;
    private final Tally unexpectedBytesCopied;
    private final Meters meters;

    /** Set while a thread runs the engine's state machine. */
    private final java.util.concurrent.atomic.AtomicBoolean driving = new java.util.concurrent.atomic.AtomicBoolean();
    /** Callers spinning on their requests, driving the engine between {@link #beginWait} and {@link #endWait}. */
    private final java.util.concurrent.atomic.AtomicInteger waiters = new java.util.concurrent.atomic.AtomicInteger();
    /** The progress thread blocks in {@link Fabric#await} (a poll-driven fabric, nobody else driving). */
    private volatile boolean awaiting;
    /** When a caller (not the progress thread) last ran a round; 0 once the last one parked. */
    private volatile long lastCallerRound;
    /** Work left that no arrival will announce (backlog, queued sends, CTSs due): poll again soon. */
    private volatile boolean pending;
    /** Closing, and nothing is left to drain: the progress loop may end. */
    private volatile boolean drained;
    private volatile boolean closing;
    private volatile boolean stopped;
    private long closeDeadline;

    /**
     * Starts a rank's NIC over {@code fabric}.
     *
     * @throws MpiException ERR_ARG if the chunk size exceeds what the fabric carries
     */
    public ProtocolEngine(String backend, Fabric fabric, DataPath<S, R> path, NicConfig config, Meters meters) {
        if (config.chunkSize() > fabric.maxPayload()) {
            throw new MpiException(ErrorClass.ERR_ARG, "chunk size " + config.chunkSize()
                    + " exceeds the fabric's largest payload " + fabric.maxPayload());
        }
        this.backend = backend;
        this.fabric = fabric;
        this.path = path;
        this.config = config;
        this.meters = meters;
        this.messagesSent = meters.counter("jspin.messages.sent", "messages");
        this.bytesSent = meters.counter("jspin.bytes.sent", "bytes");
        this.messagesReceived = meters.counter("jspin.messages.received", "messages");
        this.bytesReceived = meters.counter("jspin.bytes.received", "bytes");
        this.unexpectedBytesCopied = meters.counter("jspin.unexpected.bytes.copied", "bytes");
        this.pool = new PacketPool(config.packets(), meters.gauge("jspin.packets.in.flight"));
        this.progress = new Progress("jspin-progress-" + fabric.rank(), this, this::shutDown);
        fabric.onActivity(this::wakeIfUnattended);
        progress.start();
    }

    /** @return the tags every meter of this NIC carries (rank, backend) */
    public Tags tags() {
        return meters.tags();
    }

    // ---- the caller's side: every call becomes a command for the progress thread ---------------

    @Override
    public int rank() {
        return fabric.rank();
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public NicConfig config() {
        return config;
    }

    @Override
    public void post(MatchEntry entry) {
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> startReceive(op));
    }

    @Override
    public void put(Put put) {
        SendOp<S> op = new SendOp<>(put);
        submit(() -> startSend(op));
    }

    @Override
    public void cancel(MatchEntry entry) {
        submit(() -> {
            RecvOp<R> r = matcher.removePosted(op -> op.entry == entry);
            if (r != null) {
                r.done = true;
                notify(r.entry, new Event(Event.Kind.RECEIVE, entry.matchBits(), 0, 0, null, true));
            }
        });
    }

    @Override
    public void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener) {
        submit(() -> {
            Unexpected u = take ? matcher.take(match, ignore) : matcher.probe(match, ignore);
            MpiException gone = u == null && wait ? gone(peer) : null;
            if (u != null) {
                listener.probed(probeEvent(u), take ? u : null);
            } else if (gone != null) {
                listener.probed(new Event(Event.Kind.PROBE, match, 0, 0, gone, false), null);
            } else if (wait) {
                probes.add(new PendingProbe(peer, match, ignore, take, listener));
            } else {
                listener.probed(null, null);
            }
        });
    }

    @Override
    public void receiveMatched(MatchedMessage message, MatchEntry entry) {
        if (!(message instanceof Unexpected u)) {
            throw new MpiException(ErrorClass.ERR_REQUEST, "message " + message + " was not taken by this NIC's matched probe");
        }
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> {
            op.id = nextId++;
            consume(op, u);
        });
    }

    @Override
    public boolean accessible(MemorySegment segment) {
        return segment.isAccessibleBy(progress.thread());
    }

    @Override
    public String summary() {
        StringBuilder s = new StringBuilder();
        String rank = Integer.toString(rank());
        for (Meter m : meters.registry().getMeters()) {
            Meter.Id id = m.getId();
            if (id.getName().startsWith("jspin.") && rank.equals(id.getTag("rank"))) {
                double v = m.measure().iterator().next().getValue();
                s.append(String.format("%-34s %,.0f%n", id.getName(), v));
            }
        }
        return s.toString();
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        submit(() -> {
            closing = true;
            closeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_DRAIN_MILLIS);
        });
        try {
            progress.join(CLOSE_DRAIN_MILLIS + 5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void submit(Runnable command) {
        if (stopped) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC is closed");
        }
        commands.offer(command);
        // on a poll-driven fabric the caller runs the command itself when the engine is free: the
        // bytes leave from this thread, and the progress thread is not woken for every send
        if (fabric.pollDriven() && Thread.currentThread() != progress.thread() && tryRound() >= 0) {
            return;
        }
        wakeIfUnattended();
    }

    // ---- the progress thread ----------------------------------------------------------------

    @Override
    public void beginWait() {
        waiters.incrementAndGet();
        if (awaiting) {
            fabric.wakeup(); // the progress thread holds the engine while it blocks in the fabric: let go
        }
    }

    @Override
    public void parking() {
        lastCallerRound = 0; // nobody polls now: the progress thread may block in the fabric at once
        progress.wake();
    }

    @Override
    public void endWait() {
        waiters.decrementAndGet();
        if (hasWork()) {
            wakeIfUnattended(); // announced before this re-check, so no arrival goes unnoticed
        }
    }

    /**
     * Wakes the progress thread unless a waiting caller is spinning on this NIC (it will see the
     * work in its next round). Waking a thread that then competes for a core with the spinning
     * caller costs more than the wake-up saves, on a machine with fewer cores than threads.
     */
    private void wakeIfUnattended() {
        if (waiters.get() == 0) {
            progress.wake();
            if (awaiting) {
                fabric.wakeup();
            }
        }
    }

    /**
     * The progress thread has nothing to do. A fabric that only moves data while polled
     * ({@link Fabric#pollDriven}) is then waited on inside a round of the engine, so arrivals wake
     * this thread; but only while no caller drives, and briefly otherwise: a waiting caller polls
     * the fabric itself, and the progress thread must not hold the engine it needs.
     */
    @Override
    public void idle(long nanos) {
        if (!fabric.pollDriven()) {
            LockSupport.parkNanos(this, nanos);
            return;
        }
        boolean callersActive = waiters.get() > 0 || System.nanoTime() - lastCallerRound < QUIET_NANOS;
        if (callersActive || !driving.compareAndSet(false, true)) {
            LockSupport.parkNanos(this, DRIVEN_PARK_NANOS);
            return;
        }
        try {
            awaiting = true;
            if (waiters.get() == 0 && !hasWork()) {
                fabric.await(nanos);
            }
        } finally {
            awaiting = false;
            driving.set(false);
        }
    }

    @Override
    public boolean progress() {
        return doWork() > 0;
    }

    /** One round of the state machine, if no other thread is running it (any thread). */
    @Override
    public int doWork() {
        return Math.max(0, tryRound());
    }

    /** @return the work done in one round, or -1 if another thread is driving (or the engine stopped) */
    private int tryRound() {
        boolean mine = Thread.currentThread() == progress.thread();
        if (mine && waiters.get() > 0 && fabric.pollDriven()) {
            return -1; // a waiting caller polls the fabric itself: competing for it would only cost a core
        }
        if (stopped || !driving.compareAndSet(false, true)) {
            return -1;
        }
        if (!mine) {
            lastCallerRound = System.nanoTime();
        }
        int work;
        try {
            work = round();
            pending = !backlog.isEmpty() || !queued.isEmpty() || !ctsDue.isEmpty();
            if (closing) {
                drained = checkDrained();
            }
        } finally {
            driving.set(false);
        }
        if (pending && Thread.currentThread() != progress.thread()) {
            wakeIfUnattended(); // work is left: someone must come back for it
        }
        return work;
    }

    private int round() {
        int work = 0;
        Runnable c;
        while ((c = commands.poll()) != null) {
            try {
                c.run();
            } catch (RuntimeException e) {
                LOG.error("rank {}: a command failed", rank(), e);
            }
            work++;
        }
        work += fabric.poll(this, POLL_LIMIT);
        work += pump();
        return work;
    }

    @Override
    public boolean hasWork() {
        if (fabric.pollDriven() && waiters.get() > 0 && Thread.currentThread() == progress.thread()) {
            return false; // the waiting caller does this work; the progress thread would only spin beside it
        }
        return pending || !commands.isEmpty() || fabric.hasPending();
    }

    @Override
    public boolean finished() {
        return drained;
    }

    private boolean checkDrained() {
        if (liveSends.isEmpty() && backlog.isEmpty() && ctsDue.isEmpty()) {
            return true;
        }
        if (System.nanoTime() > closeDeadline) {
            LOG.warn("rank {}: closing with {} sends still in flight", rank(), liveSends.size());
            return true;
        }
        return false;
    }

    /** On the progress thread as it ends: fail whatever is left, free memory, leave the fabric. */
    private void shutDown() {
        while (!driving.compareAndSet(false, true)) {
            Thread.onSpinWait(); // a caller may be finishing a round
        }
        stopped = true;
        MpiException closed = new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC closed");
        for (SendOp<S> op : new ArrayList<>(liveSends.values())) {
            failSend(op, closed);
        }
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            failReceive(r, closed);
        }
        RecvOp<R> r;
        while ((r = matcher.removePosted(op -> true)) != null) {
            failReceive(r, closed);
        }
        for (PendingProbe p : probes) {
            p.listener.probed(new Event(Event.Kind.PROBE, p.match, 0, 0, closed, false), null);
        }
        probes.clear();
        Runnable c;
        while ((c = commands.poll()) != null) {
            try {
                c.run(); // commands that raced with close fail at once now that stopped is set
            } catch (RuntimeException e) {
                LOG.debug("rank {}: command after close", rank(), e);
            }
        }
        try {
            fabric.close();
        } finally {
            path.close();
        }
    }

    // ---- sending ------------------------------------------------------------------------------

    private void startSend(SendOp<S> op) {
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
        path.sendStarted(op);
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
        while (!queued.isEmpty()) {
            Packet p = pool.acquire(true);
            if (p == null) {
                return work;
            }
            SendOp<S> op = queued.poll();
            if (op.length <= config.eagerLimit()) {
                sendEager(op, p);
            } else {
                sendRts(op, p);
            }
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
        try {
            if (op.length > 0) {
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

    private void sendRts(SendOp<S> op, Packet p) {
        header(op, p, PacketKind.RTS);
        op.phase = SendOp.Phase.AWAITING_CTS;
        awaitingCts.put(op.id, op);
        transmit(op, p);
    }

    private void sendChunk(SendOp<S> op, Packet p) {
        int len = (int) Math.min(config.chunkSize(), op.accepted - op.sent);
        p.kind = PacketKind.DATA;
        p.target = op.put.target();
        p.sendId = op.id;
        p.recvId = op.recvId;
        p.offset = op.sent;
        try {
            path.fill(op, op.sent, len, p);
        } catch (RuntimeException e) {
            pool.free(p);
            failSend(op, asMpi(e, "packing bytes from " + op.sent));
            return;
        }
        op.sent += len;
        if (op.sent == op.accepted) {
            op.phase = SendOp.Phase.DRAINING;
        }
        transmit(op, p);
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
            // back, so release it here, and fail only the send it belonged to, never the engine
            SendOp<S> op = ownerOf(p);
            onReleased(p);
            if (op != null) {
                failSend(op, asMpi(e, "sending to rank " + op.put.target()));
            }
            return true;
        }
    }

    @Override
    public void onReleased(Packet p) {
        SendOp<S> op = ownerOf(p);
        if (op != null) {
            path.released(p);
        }
        pool.free(p);
        if (op != null) {
            op.packetsOut--;
            if (!op.done && op.phase == SendOp.Phase.DRAINING && op.packetsOut == 0) {
                complete(op, null);
            }
        }
    }

    /** @return the send a packet of this engine's belongs to, or null (a CTS) */
    @SuppressWarnings("unchecked") // only this engine's sends are packet owners
    private SendOp<S> ownerOf(Packet p) {
        return p.owner instanceof SendOp<?> op ? (SendOp<S>) op : null;
    }

    private void onCts(Packet p) {
        SendOp<S> op = awaitingCts.remove(p.sendId);
        long accepted = p.messageLength;
        long recvId = p.recvId;
        fabric.release(p);
        if (op == null || op.done) {
            return;
        }
        op.recvId = recvId;
        op.accepted = accepted;
        if (accepted == 0) {
            op.phase = SendOp.Phase.DRAINING;
            if (op.packetsOut == 0) {
                complete(op, null);
            }
        } else {
            op.phase = SendOp.Phase.SENDING_DATA;
            streaming.add(op);
        }
    }

    private void failSend(SendOp<S> op, MpiException e) {
        if (op.done) {
            return;
        }
        queued.remove(op);
        streaming.remove(op);
        awaitingCts.remove(op.id);
        complete(op, e);
    }

    private void complete(SendOp<S> op, MpiException error) {
        op.done = true;
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

    private void startReceive(RecvOp<R> op) {
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
            }
        } catch (RuntimeException e) {
            LOG.error("rank {}: failed handling {}", rank(), p, e);
        }
    }

    private void onEager(Packet p) {
        RecvOp<R> r = matcher.matchPosted(p.matchBits);
        if (r != null) {
            try {
                matched(r, p.source, p.matchBits, p.messageLength, p.signatureHash, p.signatureElements);
                finishEager(r, p.payload, p.payloadOffset);
            } finally {
                fabric.release(p);
            }
            return;
        }
        MemorySegment copy = null;
        if (p.payloadLength > 0) {
            copy = MemorySegment.ofArray(new byte[p.payloadLength]);
            MemorySegment.copy(p.payload, p.payloadOffset, copy, 0, p.payloadLength);
            unexpectedBytesCopied.add(p.payloadLength);
        }
        Unexpected u = new Unexpected(PacketKind.EAGER, p.source, p.matchBits, p.messageLength, p.sendId,
                p.signatureHash, p.signatureElements, copy);
        fabric.release(p);
        arrivedUnexpected(u);
    }

    private void onRts(Packet p) {
        RecvOp<R> r = matcher.matchPosted(p.matchBits);
        int source = p.source;
        long bits = p.matchBits;
        long length = p.messageLength;
        long sendId = p.sendId;
        long hash = p.signatureHash;
        long elements = p.signatureElements;
        fabric.release(p);
        if (r != null) {
            matched(r, source, bits, length, hash, elements);
            acceptRendezvous(r, sendId);
        } else {
            arrivedUnexpected(new Unexpected(PacketKind.RTS, source, bits, length, sendId, hash, elements, null));
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
            path.deliver(r, p.offset, p.payload, p.payloadOffset, length);
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
            finishEager(r, u.data, 0);
        } else {
            acceptRendezvous(r, u.sendId);
        }
    }

    private void arrivedUnexpected(Unexpected u) {
        matcher.addUnexpected(u.bits, u);
        if (probes.isEmpty()) {
            return;
        }
        Iterator<PendingProbe> it = probes.iterator();
        while (it.hasNext()) {
            PendingProbe p = it.next();
            if (MatchBits.matches(u.bits, p.match, p.ignore)) {
                it.remove();
                if (p.take) {
                    matcher.take(p.match, p.ignore); // u: the first match, or an earlier probe had found it
                    p.listener.probed(probeEvent(u), u);
                    return;
                }
                p.listener.probed(probeEvent(u), null);
            }
        }
    }

    /** Records the match and decides how many bytes the receive takes (truncation, signature). */
    private void matched(RecvOp<R> r, int source, long bits, long length, long hash, long elements) {
        r.source = source;
        r.messageBits = bits;
        r.messageBytes = length;
        MatchEntry e = r.entry;
        MpiException signature = signatureMismatch(e, hash, elements, bits);
        if (signature != null) {
            r.error = signature;
            r.accepted = 0;
        } else if (length > r.capacity) {
            r.error = new MpiException(ErrorClass.ERR_TRUNCATE, "message of " + length + " bytes from rank "
                    + MatchBits.source(bits) + " with tag " + MatchBits.tag(bits) + " is longer than the receive buffer's "
                    + r.capacity + " bytes (" + e.count() + " x " + e.type() + "); received the first " + r.capacity);
            r.accepted = r.capacity;
        } else {
            r.accepted = length;
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

    private static MpiException signatureMismatch(MatchEntry e, long hash, long elements, long bits) {
        Datatype t = e.type();
        if (elements < 0 || SignatureHash.untyped(t)) {
            return null; // bytes on either side match anything, as MPI_BYTE and MPI_PACKED do
        }
        long receivable;
        try {
            receivable = Math.multiplyExact(e.count(), Signatures.basicElements(t));
        } catch (ArithmeticException overflow) {
            receivable = Long.MAX_VALUE;
        }
        if (elements > receivable) {
            return null; // longer than the receive: reported as truncation
        }
        if (SignatureHash.ofPrefix(t, elements) == hash) {
            return null;
        }
        return new MpiException(ErrorClass.ERR_TYPE, "the type signature of the message from rank "
                + MatchBits.source(bits) + " with tag " + MatchBits.tag(bits) + " (" + elements
                + " basic elements) differs from that of the receive's " + e.count() + " x " + t);
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
        if (r.accepted > 0) {
            awaitingData.put(r.id, r);
        }
    }

    private void sendCts(RecvOp<R> r, Packet p) {
        p.kind = PacketKind.CTS;
        p.target = r.source;
        p.sendId = r.peerSendId;
        p.recvId = r.id;
        p.messageLength = r.accepted;
        p.owner = null;
        transmit(p);
        if (r.accepted == 0 && !r.done) {
            finishReceive(r); // type mismatch or empty receive: nothing will flow
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
        for (RecvOp<R> r : new ArrayList<>(awaitingData.values())) {
            if (r.source == peer) {
                awaitingData.remove(r.id);
                failReceive(r, e);
            }
        }
        ctsDue.removeIf(r -> r.source == peer && failAndTrue(r, e));
        boolean nobodyLeft = failedRanks.cardinality() >= size() - 1;
        RecvOp<R> r;
        while ((r = matcher.removePosted(op -> op.entry.peer() == peer || (nobodyLeft && op.entry.peer() < 0))) != null) {
            failReceive(r, e);
        }
        probes.removeIf(p -> {
            if (p.peer == peer || (nobodyLeft && p.peer < 0)) {
                p.listener.probed(new Event(Event.Kind.PROBE, p.match, 0, 0, e, false), null);
                return true;
            }
            return false;
        });
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

    private static Event probeEvent(Unexpected u) {
        return new Event(Event.Kind.PROBE, u.bits, u.length, 0, null, false);
    }

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

    private record PendingProbe(int peer, long match, long ignore, boolean take, ProbeListener listener) {
    }
}
