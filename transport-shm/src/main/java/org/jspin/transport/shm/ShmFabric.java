package org.jspin.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.bootstrap.EndpointExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
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
 *
 * <p>Its parts: {@code RingRecord} (a record's layout), {@code RingHellos} (the job secret),
 * {@code RingReader} (records to packets), {@code Departures} (peers that leave, die or fail).
 */
public final class ShmFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(ShmFabric.class);

    /** Default ring bytes per rank: 15 chunks of 256 KiB in flight to one receiver. */
    public static final int DEFAULT_CAPACITY = 4 << 20;

    private final int rank;
    private final int size;
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
    private final RingHellos hellos;
    private final Departures departures;
    private final ArrayDeque<Packet> released = new ArrayDeque<>();
    /** The packet whose record {@link #claim} holds open at {@link #lentAt}, or null. */
    private Packet lent;
    private int lentAt;
    private final Arena timing = Arena.ofShared();
    private final MemorySegment timespec = timing.allocate(16, 8);
    private final RingReader reader;
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
        this.size = size;
        this.rank = rank;
        this.exchange = exchange;
        this.own = own;
        this.rings = new RingFile[size];
        this.outboxes = new ManyToOneRingBuffer[size];
        this.outSegments = new MemorySegment[size];
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
            this.maxPayload = inbox.maxMsgLength() - RingRecord.HEADER;
            this.onHost = peers + 1;
            this.departures = new Departures(rank, rings, inbox, Departures.LIVENESS_NANOS);
            this.hellos = new RingHellos(jobId, rank, secret, rings);
            this.reader = new RingReader(rank, rings, inSegment, hellos, departures);
            hellos.sayHello(outboxes);
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
        if (hellos.allProven()) {
            own.unlink();
        }
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
        int at = outboxes[target].tryClaim(RingRecord.code(packet.kind), RingRecord.HEADER + length);
        if (at < 0) {
            return false; // the copying send asks for room when it finds none
        }
        lent = packet;
        lentAt = at;
        packet.payload = outSegments[target];
        packet.payloadOffset = at + RingRecord.HEADER;
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
        if (departures.departed(target) || (target != rank && rings[target].closed())) {
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
        int type = RingRecord.code(packet.kind);
        int at = out.tryClaim(type, RingRecord.HEADER + length);
        if (at < 0) {
            rings[target].wantSpace(rank);
            at = out.tryClaim(type, RingRecord.HEADER + length); // room made before the flag was seen
            if (at < 0) {
                return false;
            }
        }
        if (length > 0) {
            MemorySegment.copy(packet.payload, packet.payloadOffset, outSegments[target], at + RingRecord.HEADER,
                    length);
        }
        commit(packet, at);
        return true;
    }

    /** Writes the header of the packet's record at {@code at}, whose payload is in place, and commits it. */
    private void commit(Packet packet, int at) {
        int target = packet.target;
        packet.source = rank;
        RingRecord.writeHeader(rings[target].ring(), at, packet);
        outboxes[target].commit(at);
        rings[target].written();
        released.add(packet); // in the ring: the engine may reuse it at its next poll
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
        boolean leaving = departures.look();
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
            n += departures.report(handler); // only once all they wrote before leaving is delivered
        }
        if (hellos.allProven() && !own.unlinked()) {
            own.unlink(); // every peer has mapped this ring: its name is no longer needed
        }
        return n;
    }

    @Override
    public void release(Packet packet) {
        reader.released(packet);
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

    // ---- waiting ------------------------------------------------------------------------------

    @Override
    public boolean hasPending() {
        return !released.isEmpty() || inbox.size() > 0 || departures.pending() || own.spaceWanted();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        // writers in other processes run no code here: a waiting caller sleeps in await instead
    }

    @Override
    public void await(long nanos) {
        long wait = departures.untilLook(nanos);
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
        return departures.untilLookKeepingDue(nanos);
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
