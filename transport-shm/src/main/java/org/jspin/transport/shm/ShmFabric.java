package org.jspin.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.bootstrap.EndpointExchange;
import org.jspin.bootstrap.SecretProof;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fabric between processes of one host: every rank owns an inbox in shared memory (an Agrona
 * many-to-one ring in a {@link RingFile}) that its peers write packets into. A packet costs the
 * sender one copy into the ring and the receiver one out of it: the engine unpacks a message
 * straight from the ring's bytes, which the ring reuses once the packet is released (the engine
 * releases every packet as it handles it; one that must wait, an RTS carrying payload, is copied
 * aside first).
 *
 * <p>Waiting gives the CPU back: a caller with nothing to do sleeps on its inbox's futex word
 * ({@link #await}), and a writer wakes it only when it sleeps. Progress happens in the rank's own
 * calls ({@link #progressInCalls}): no thread of a computing rank is woken for each packet.
 *
 * <p>Trust: ring names are random and travel only through the job's endpoint exchange, the files
 * are the user's own with mode 0600, and a peer's first record must prove the job secret (an HMAC
 * over the job, the ring's name and its rank) before any packet of it is taken. A malformed
 * record fails its sender, named; a peer that leaves or dies is reported once whatever it wrote
 * before has been delivered.
 */
public final class ShmFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(ShmFabric.class);

    /** Default ring bytes per rank: 15 chunks of 256 KiB in flight to one receiver. */
    public static final int DEFAULT_CAPACITY = 4 << 20;
    // A packet's record: its header, where each field starts (the record's type is the kind's code), then the payload.
    static final int SOURCE_AT = 0;
    static final int TARGET_AT = 4;
    static final int MATCH_BITS_AT = 8;
    static final int SEND_ID_AT = 16;
    static final int RECV_ID_AT = 24;
    static final int OFFSET_AT = 32;
    static final int MESSAGE_LENGTH_AT = 40;
    static final int SIGNATURE_HASH_AT = 48;
    static final int SIGNATURE_ELEMENTS_AT = 56;
    /** Bytes of a packet's header in its record. */
    static final int HEADER = 64;
    /** The record type of a peer's proof of the job secret (packets use {@link #code}). */
    static final int HELLO = 16;
    static final String HELLO_LABEL = "jspin-shm-hello";
    private static final int HELLO_BYTES = 4 + SecretProof.BYTES;
    /**
     * How often peers are looked at for having left or died: each look reads every peer's
     * {@code /proc/<pid>/stat}.
     */
    private static final long LIVENESS_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** A detached packet (an RTS's payload copied aside) belongs to no sender. */
    private static final Object DETACHED = new Object();

    private final String jobId;
    private final int rank;
    private final int size;
    private final byte[] secret;
    private final EndpointExchange exchange;
    private final RingFile own;
    private final RingFile[] rings;
    private final ManyToOneRingBuffer inbox;
    private final ManyToOneRingBuffer[] outboxes;
    private final MemorySegment[] outSegments;
    private final MemorySegment inSegment;
    private final int maxPayload;
    /** Ranks this fabric reaches, this one included: those of this host. */
    private final int onHost;
    private final boolean[] proven;
    private int unproven;
    private final boolean[] departing;
    private final boolean[] gone;
    private final ArrayDeque<Packet> released = new ArrayDeque<>();
    /** The packet whose record {@link #claim} holds open at {@link #lentAt}, or null. */
    private Packet lent;
    private int lentAt;
    private final Arena timing = Arena.ofShared();
    private final MemorySegment timespec = timing.allocate(16, 8);
    private final long self = ProcessHandle.current().pid();
    private final Reader reader = new Reader();
    private long nextLivenessCheck;
    private int polls;
    /** A sleep found the look at the peers overdue: the next poll takes it. */
    private boolean livenessDue;
    private boolean departures;
    private boolean closed;

    /**
     * Joins a job whose ranks all run on this host: makes this rank's ring, learns every rank's
     * through {@code exchange}, maps them, and proves the secret to each peer.
     *
     * @param dir      where rings live ({@code /dev/shm} on Linux)
     * @param capacity ring bytes per rank, a power of two
     * @throws MpiException ERR_OTHER naming what failed (a ring that cannot be made or mapped, the exchange)
     */
    static ShmFabric join(String jobId, int size, int rank, String secret, EndpointExchange exchange, Duration timeout,
                          Path dir, int capacity) {
        RingFile own = create(dir, rank, size, capacity);
        List<String> paths;
        try {
            paths = exchange.exchange(rank, own.path().toString(), timeout);
        } catch (RuntimeException e) {
            own.unlink();
            own.close();
            throw e;
        }
        return new ShmFabric(jobId, size, rank, secret, own, paths, capacity, exchange);
    }

    /**
     * Makes rank {@code rank}'s ring in {@code dir}, once the files of jobs whose makers are gone are swept.
     *
     * @throws MpiException ERR_OTHER when the ring cannot be made
     */
    static RingFile create(Path dir, int rank, int size, int capacity) {
        StaleRings.sweep(dir);
        return RingFile.create(dir, rank, size, capacity);
    }

    /**
     * Joins over rings already exchanged: maps each peer's and proves the secret to it. On failure
     * {@code own} is unlinked and closed.
     *
     * @param own      this rank's ring ({@link #create})
     * @param paths    every rank's ring, indexed by rank; null for a rank on another host, which
     *                 this fabric does not reach
     * @param exchange closed when this fabric closes (null: someone else closes it)
     * @throws MpiException ERR_OTHER naming what failed (a ring that cannot be mapped)
     */
    ShmFabric(String jobId, int size, int rank, String secret, RingFile own, List<String> paths, int capacity,
              EndpointExchange exchange) {
        this.jobId = jobId;
        this.size = size;
        this.rank = rank;
        this.secret = SecretProof.utf8(secret);
        this.exchange = exchange;
        this.own = own;
        this.rings = new RingFile[size];
        this.outboxes = new ManyToOneRingBuffer[size];
        this.outSegments = new MemorySegment[size];
        this.proven = new boolean[size];
        this.departing = new boolean[size];
        this.gone = new boolean[size];
        try {
            if (paths.size() != size) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the endpoint exchange returned " + paths.size()
                        + " rings for a job of " + size + " ranks");
            }
            int peers = 0;
            for (int r = 0; r < size; r++) {
                if (r != rank && paths.get(r) != null) {
                    rings[r] = RingFile.open(Path.of(paths.get(r)), r, size, capacity);
                    outboxes[r] = new ManyToOneRingBuffer(rings[r].ring());
                    outSegments[r] = rings[r].segment();
                    peers++;
                }
            }
            rings[rank] = own;
            this.inbox = new ManyToOneRingBuffer(own.ring());
            outboxes[rank] = inbox;
            outSegments[rank] = own.segment();
            this.inSegment = own.segment();
            this.maxPayload = inbox.maxMsgLength() - HEADER;
            this.onHost = peers + 1;
            proven[rank] = true;
            this.unproven = peers;
            for (int r = 0; r < size; r++) {
                if (r != rank && rings[r] != null) {
                    hello(r);
                }
            }
        } catch (RuntimeException e) {
            for (RingFile f : rings) {
                if (f != null && f != own) {
                    f.close();
                }
            }
            own.unlink();
            own.close();
            timing.close();
            throw e;
        }
        if (unproven == 0) {
            own.unlink();
        }
        nextLivenessCheck = System.nanoTime() + LIVENESS_NANOS;
    }

    /** Writes this rank's proof of the secret into {@code peer}'s ring: its first record from us. */
    private void hello(int peer) {
        byte[] proof = proof(rank, rings[peer].path());
        ManyToOneRingBuffer out = outboxes[peer];
        UnsafeBuffer b = rings[peer].ring();
        int at;
        while ((at = out.tryClaim(HELLO, HELLO_BYTES)) < 0) {
            Thread.onSpinWait(); // a new ring has room for every hello; only a peer's early packets can fill it
        }
        b.putInt(at + SOURCE_AT, rank);
        b.putBytes(at + 4, proof);
        out.commit(at);
        rings[peer].signal();
    }

    private byte[] proof(int from, Path ring) {
        return SecretProof.of(secret, HELLO_LABEL, SecretProof.utf8(jobId), SecretProof.utf8(ring.getFileName().toString()),
                SecretProof.int32(from));
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int maxPayload() {
        return maxPayload;
    }

    @Override
    public int preferredChunkSize() {
        return Math.min(maxPayload, 256 << 10);
    }

    /**
     * 64 KiB, as Netty's: an eager message costs the same two copies as a rendezvous one, without
     * its round trip (measured in docs/one-host.md).
     */
    @Override
    public int preferredEagerLimit() {
        return 64 << 10;
    }

    @Override
    public boolean pollDriven() {
        return true;
    }

    @Override
    public boolean progressInCalls() {
        return true;
    }

    @Override
    public int ranksOnHost() {
        return onHost;
    }

    /** @return whether this fabric reaches rank {@code r} (it runs on this host) */
    boolean reaches(int r) {
        return rings[r] != null;
    }

    // ---- sending ------------------------------------------------------------------------------

    /**
     * Claims the packet's record in the target's ring and shows its payload bytes: the caller packs
     * straight into the ring, and {@link #send} only writes the header and commits.
     */
    @Override
    public boolean claim(Packet packet, int length) {
        if (lent != null) {
            throw new IllegalStateException("rank " + rank + " claims ring memory for " + packet + " while " + lent
                    + " holds some");
        }
        int target = sendable(packet.target, length);
        int at = outboxes[target].tryClaim(code(packet.kind), HEADER + length);
        if (at < 0) {
            return false; // the copying send asks for room when it finds none
        }
        lent = packet;
        lentAt = at;
        packet.payload = outSegments[target];
        packet.payloadOffset = at + HEADER;
        packet.payloadLength = length;
        return true;
    }

    @Override
    public void abandon(Packet packet) {
        if (packet != lent) {
            throw new IllegalStateException("rank " + rank + " gives back ring memory " + packet + " never claimed");
        }
        lent = null;
        outboxes[packet.target].abort(lentAt); // the reader skips it as padding
        packet.payload = null;
        packet.payloadLength = 0;
    }

    /**
     * @return {@code target}, once it is known to be reachable and a payload of {@code length} fits
     * @throws MpiException naming what is wrong
     */
    private int sendable(int target, int length) {
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " has left the fabric");
        }
        if (target < 0 || target >= size) {
            throw new MpiException(ErrorClass.ERR_RANK, "target rank must be in [0, " + size + "), got " + target);
        }
        if (rings[target] == null) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + target + " runs on another host than rank " + rank
                    + ": the shm fabric does not reach it");
        }
        if (gone[target] || departing[target] || (target != rank && rings[target].closed())) {
            throw new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + target + " has left the job");
        }
        if (length < 0 || length > maxPayload) {
            throw new MpiException(ErrorClass.ERR_OTHER, "a packet of " + length + " payload bytes, beyond the shm"
                    + " fabric's " + maxPayload);
        }
        return target;
    }

    @Override
    public boolean send(Packet packet) {
        if (packet == lent) {
            lent = null;
            commit(packet, lentAt);
            return true;
        }
        if (lent != null) {
            throw new IllegalStateException("rank " + rank + " sends " + packet + " while " + lent + " holds ring memory");
        }
        int target = sendable(packet.target, packet.payloadLength);
        int length = packet.payloadLength;
        ManyToOneRingBuffer out = outboxes[target];
        int at = out.tryClaim(code(packet.kind), HEADER + length);
        if (at < 0) {
            rings[target].wantSpace(rank);
            at = out.tryClaim(code(packet.kind), HEADER + length); // room made before the flag was seen
            if (at < 0) {
                return false;
            }
        }
        if (length > 0) {
            MemorySegment.copy(packet.payload, packet.payloadOffset, outSegments[target], at + HEADER, length);
        }
        commit(packet, at);
        return true;
    }

    /** Writes the header of the packet's record at {@code at}, whose payload is in place, and commits it. */
    private void commit(Packet packet, int at) {
        int target = packet.target;
        packet.source = rank;
        UnsafeBuffer b = rings[target].ring();
        b.putInt(at + SOURCE_AT, rank);
        b.putInt(at + TARGET_AT, target);
        b.putLong(at + MATCH_BITS_AT, packet.matchBits);
        b.putLong(at + SEND_ID_AT, packet.sendId);
        b.putLong(at + RECV_ID_AT, packet.recvId);
        b.putLong(at + OFFSET_AT, packet.offset);
        b.putLong(at + MESSAGE_LENGTH_AT, packet.messageLength);
        b.putLong(at + SIGNATURE_HASH_AT, packet.signatureHash);
        b.putLong(at + SIGNATURE_ELEMENTS_AT, packet.signatureElements);
        outboxes[target].commit(at);
        rings[target].written();
        released.add(packet); // in the ring: the engine may reuse it at its next poll
    }

    static int code(PacketKind kind) {
        return switch (kind) {
            case EAGER -> 1;
            case RTS -> 2;
            case CTS -> 3;
            case DATA -> 4;
            case CREDIT -> 5;
        };
    }

    static PacketKind kind(int code) {
        return switch (code) {
            case 1 -> PacketKind.EAGER;
            case 2 -> PacketKind.RTS;
            case 3 -> PacketKind.CTS;
            case 4 -> PacketKind.DATA;
            case 5 -> PacketKind.CREDIT;
            default -> null;
        };
    }

    // ---- receiving ----------------------------------------------------------------------------

    @Override
    public int poll(PacketHandler handler, int limit) {
        int n = 0;
        Packet p;
        while (n < limit && (p = released.poll()) != null) {
            handler.onReleased(p);
            n++;
        }
        boolean leaving = departures;
        if ((++polls & 255) == 0 || livenessDue) { // the clock every 256 polls: a poll is a spinning waiter's loop
            livenessDue = false;
            long now = System.nanoTime();
            if (now - nextLivenessCheck >= 0) {
                nextLivenessCheck = now + LIVENESS_NANOS;
                leaving |= lookForDepartures();
            }
        }
        if (n < limit) {
            reader.handler = handler;
            try {
                n += inbox.read(reader, limit - n);
            } finally {
                reader.handler = null;
            }
            if (own.spaceWanted()) {
                wakeProducers();
            }
        }
        if (leaving && inbox.size() == 0) {
            n += reportDepartures(handler); // only once all they wrote before leaving is delivered
        }
        if (unproven == 0 && !own.unlinked()) {
            own.unlink(); // every peer has mapped this ring: its name is no longer needed
        }
        return n;
    }

    /** Hands records to the engine as packets; the engine releases each before it returns. */
    private final class Reader implements MessageHandler {
        PacketHandler handler;
        private final Packet inbound = new Packet();
        private boolean inboundOut;

        @Override
        public void onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
            if (type == HELLO) {
                onHello(buffer, index, length);
                return;
            }
            int source = length >= TARGET_AT ? buffer.getInt(index + SOURCE_AT) : -1;
            if (source < 0 || source >= size || rings[source] == null) {
                LOG.error("rank {}: dropped a record of type {} and {} bytes naming no rank of the job on this host"
                        + " (source {})", rank, type, length, source);
                return;
            }
            if (gone[source] || departing[source]) {
                return; // its sender was failed already
            }
            PacketKind kind = kind(type);
            String wrong = !proven[source] ? "a packet before proving the job secret"
                    : length < HEADER ? "a record of " + length + " bytes, shorter than a packet's " + HEADER + "-byte header"
                    : kind == null ? "a record of unknown type " + type
                    : buffer.getInt(index + TARGET_AT) != rank ? "a packet addressed to rank " + buffer.getInt(index + TARGET_AT)
                    : null;
            if (wrong != null) {
                fail(handler, source, "rank " + source + " wrote " + wrong + " into rank " + rank + "'s ring");
                return;
            }
            Packet p = inbound;
            p.clear();
            p.kind = kind;
            p.source = source;
            p.target = rank;
            p.matchBits = buffer.getLong(index + MATCH_BITS_AT);
            p.sendId = buffer.getLong(index + SEND_ID_AT);
            p.recvId = buffer.getLong(index + RECV_ID_AT);
            p.offset = buffer.getLong(index + OFFSET_AT);
            p.messageLength = buffer.getLong(index + MESSAGE_LENGTH_AT);
            p.signatureHash = buffer.getLong(index + SIGNATURE_HASH_AT);
            p.signatureElements = buffer.getLong(index + SIGNATURE_ELEMENTS_AT);
            p.payloadLength = length - HEADER;
            if (p.payloadLength > 0) {
                p.payload = inSegment;
                p.payloadOffset = index + HEADER;
            }
            if (kind == PacketKind.RTS && p.payloadLength > 0) {
                handler.onPacket(detached(p)); // the engine may hold an RTS's payload until its next round
                return;
            }
            inboundOut = true;
            handler.onPacket(p);
            if (inboundOut) {
                inboundOut = false;
                throw new IllegalStateException("rank " + rank + ": the engine kept " + p + " past its delivery, but"
                        + " its bytes are in the shm ring, which reuses them");
            }
        }

        private void onHello(MutableDirectBuffer buffer, int index, int length) {
            int source = length == HELLO_BYTES ? buffer.getInt(index) : -1;
            if (source < 0 || source >= size || source == rank || rings[source] == null) {
                LOG.error("rank {}: dropped a malformed hello ({} bytes, rank {})", rank, length, source);
                return;
            }
            byte[] given = new byte[SecretProof.BYTES];
            buffer.getBytes(index + 4, given);
            if (!SecretProof.matches(proof(source, own.path()), given)) {
                fail(handler, source, "rank " + source + "'s hello to rank " + rank + " does not prove the job secret");
                return;
            }
            if (!proven[source]) {
                proven[source] = true;
                unproven--;
            }
        }
    }

    private Packet detached(Packet p) {
        Packet d = new Packet();
        d.headerFrom(p);
        d.payload = MemorySegment.ofArray(new byte[p.payloadLength]);
        MemorySegment.copy(p.payload, p.payloadOffset, d.payload, 0, p.payloadLength);
        d.payloadLength = p.payloadLength;
        d.owner = DETACHED;
        return d;
    }

    @Override
    public void release(Packet packet) {
        if (packet == reader.inbound) {
            reader.inboundOut = false;
        }
        // a detached packet is garbage once released; packets this rank sent come back through poll
    }

    /** Wakes the producers that found this rank's ring full, now that reading made room. */
    private void wakeProducers() {
        own.clearSpaceWanted();
        for (int r = 0; r < size; r++) {
            if (own.takeSpaceWanted(r) && r != rank && rings[r] != null) {
                rings[r].signal();
            }
        }
    }

    // ---- peers leaving ------------------------------------------------------------------------

    /** @return whether a peer has left (closed its ring) or died since the last look */
    private boolean lookForDepartures() {
        for (int r = 0; r < size; r++) {
            RingFile f = rings[r];
            if (r == rank || f == null || gone[r] || departing[r]) {
                continue;
            }
            boolean left = f.closed();
            long pid = f.pid();
            boolean died = !left && pid != self && ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
            if (left || died) {
                departing[r] = true;
                departures = true;
                if (died) {
                    inbox.unblock(); // a record it had begun to write will never be finished
                }
            }
        }
        return departures;
    }

    private int reportDepartures(PacketHandler handler) {
        int n = 0;
        for (int r = 0; r < size; r++) {
            if (departing[r] && !gone[r]) {
                gone[r] = true;
                n++;
                handler.onPeerFailed(r, rings[r].closed() ? "rank " + r + " left the job"
                        : "rank " + r + " (process " + rings[r].pid() + ") died");
            }
        }
        departures = false;
        return n;
    }

    private void fail(PacketHandler handler, int peer, String reason) {
        LOG.error("rank {}: {}", rank, reason);
        if (!gone[peer]) {
            gone[peer] = true;
            handler.onPeerFailed(peer, reason);
        }
    }

    // ---- waiting ------------------------------------------------------------------------------

    @Override
    public boolean hasPending() {
        return !released.isEmpty() || inbox.size() > 0 || departures || own.spaceWanted();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        // writers in other processes run no code here: a waiting caller sleeps in await instead
    }

    @Override
    public void await(long nanos) {
        long wait = Math.min(nanos, Math.max(0, nextLivenessCheck - System.nanoTime()));
        livenessDue = wait == 0;
        int seen = own.prepareSleep();
        try {
            if (wait > 0 && !hasPending()) {
                timespec.set(ValueLayout.JAVA_LONG, 0, wait / 1_000_000_000L);
                timespec.set(ValueLayout.JAVA_LONG, 8, wait % 1_000_000_000L);
                own.sleep(seen, timespec);
            }
        } finally {
            own.awake();
        }
    }

    @Override
    public void wakeup() {
        own.signal();
    }

    /**
     * @return how long a caller may wait, at most {@code nanos}, before this fabric's next look at
     *         its peers (which the next {@link #poll} then takes, when it is due now: 0)
     */
    long untilLivenessCheck(long nanos) {
        long wait = Math.min(nanos, Math.max(0, nextLivenessCheck - System.nanoTime()));
        livenessDue |= wait == 0;
        return wait;
    }

    /**
     * Sleeps another thread than the owner's until a record or signal reaches this rank's ring, or
     * {@code timespec} passes: for a fabric whose owner waits elsewhere (a socket's readiness) while
     * this thread watches the ring for it. Only that one thread may call it.
     *
     * @return whether something reached the ring (a record to read, or the futex word moved)
     */
    boolean watch(MemorySegment timespec) {
        int seen = own.prepareSleep();
        try {
            if (arrived()) {
                return true;
            }
            own.sleep(seen, timespec);
            return arrived() || own.signalWord() != seen;
        } finally {
            own.awake();
        }
    }

    /** @return whether the ring holds records, or a producer waits for room; any thread */
    private boolean arrived() {
        return inbox.size() > 0 || own.spaceWanted();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        own.markClosed();
        for (int r = 0; r < size; r++) {
            if (r != rank && rings[r] != null) {
                rings[r].signal(); // a peer asleep in a wait notices at once
                rings[r].close();
            }
        }
        own.unlink();
        own.close();
        timing.close();
        if (exchange != null) {
            try {
                exchange.close();
            } catch (RuntimeException e) {
                LOG.warn("rank {}: leaving the endpoint exchange failed: {}", rank, e.getMessage());
            }
        }
    }

    /** @return this rank's ring file (tests look at its name and mode) */
    Path ringPath() {
        return own.path();
    }
}
