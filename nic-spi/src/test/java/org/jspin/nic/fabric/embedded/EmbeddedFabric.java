package org.jspin.nic.fabric.embedded;

import java.lang.foreign.MemorySegment;

import java.util.ArrayDeque;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;

/**
 * One rank's endpoint of an {@link EmbeddedNetwork}: a {@link Fabric} with no threads and no
 * sockets, whose queues a test reads and writes directly. What the rank sends waits in its
 * outbound queue ({@link #readOutbound}) until the network routes it; what is due to the rank
 * (arrivals, its own packets released by their receiver, departures of peers) is delivered, in the
 * order it happened, at the rank's next {@link #poll}. A test can play a peer: feed packets in
 * ({@link #writeInbound}), hand the rank's packets back ({@link #releaseOutbound}), see the packets
 * it wrote in come back ({@link #readReleased}), fail a peer ({@link #failPeer}) and fill the link
 * ({@link #linkCapacity}).
 *
 * <p>Packets travel by reference, as on the in-JVM fabric: a packet read from the outbound queue
 * is the sender's own, which it reuses once it is released, so look at it before releasing it.
 * Not thread-safe.
 */
public final class EmbeddedFabric implements Fabric {
    private boolean lends;
    private Packet lent;
    private int claims;
    private int abandoned;
    private final EmbeddedNetwork network;
    private final int rank;
    private final int maxPayload;
    private final ArrayDeque<Packet> outbound = new ArrayDeque<>();
    private final ArrayDeque<Due> due = new ArrayDeque<>();
    private final ArrayDeque<Packet> released = new ArrayDeque<>();
    private int linkCapacity = Integer.MAX_VALUE;
    private int wholeData;
    private int rtsPayload;
    private int chunkSize = NicConfig.DEFAULT_CHUNK_SIZE;
    private long refused;
    private Runnable activity = () -> { };
    private boolean closed;

    EmbeddedFabric(EmbeddedNetwork network, int rank, int maxPayload) {
        this.network = network;
        this.rank = rank;
        this.maxPayload = maxPayload;
    }

    // ---- the Fabric ---------------------------------------------------------------------------

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return network.size();
    }

    @Override
    public int maxPayload() {
        return maxPayload;
    }

    /** What {@link #preferWholeData} set; 0 (always chunks) until then. */
    @Override
    public int preferredWholeData() {
        return wholeData;
    }

    /**
     * Has this endpoint prefer to send a data phase up to {@code bytes} long as one packet
     * ({@link Fabric#preferredWholeData}), as a socket fabric does; read by a core when it is made.
     */
    public void preferWholeData(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        this.wholeData = bytes;
    }

    /** What {@link #preferRtsPayload} set; 0 (the RTS alone) until then. */
    @Override
    public int preferredRtsPayload() {
        return rtsPayload;
    }

    /**
     * Has this endpoint prefer {@code bytes} of a rendezvous message to travel with its RTS
     * ({@link Fabric#preferredRtsPayload}), as the in-JVM and socket fabrics do; read by a core
     * when it is made.
     */
    public void preferRtsPayload(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        this.rtsPayload = bytes;
    }

    /** What {@link #preferChunkSize} set; {@link NicConfig#DEFAULT_CHUNK_SIZE} until then. */
    @Override
    public int preferredChunkSize() {
        return chunkSize;
    }

    /**
     * Has this endpoint prefer rendezvous data packets of {@code bytes} ({@link Fabric#preferredChunkSize});
     * read by a core when it is made.
     */
    public void preferChunkSize(int bytes) {
        if (bytes < 64) {
            throw new IllegalArgumentException("bytes must be >= 64, got " + bytes);
        }
        this.chunkSize = bytes;
    }

    /**
     * Queues {@code packet} on this rank's outbound queue (setting its source), unless the link is
     * full: {@link #linkCapacity} packets already wait there.
     *
     * @throws MpiException ERR_OTHER if this rank has left, ERR_RANK for a target outside the job,
     *                      ERR_PROC_FAILED if the target has left
     */
    /**
     * Lends memory for packed payloads ({@link #claim}), as a fabric of rings in shared memory does:
     * a fresh array per claim, while the link has room.
     */
    public void lendPayloads(boolean lend) {
        this.lends = lend;
    }

    /** @return payload windows lent so far ({@link #claim}) */
    public int claims() {
        return claims;
    }

    /** @return lent windows given back unsent ({@link #abandon}) */
    public int abandoned() {
        return abandoned;
    }

    @Override
    public boolean claim(Packet packet, int length) {
        if (lent != null) {
            throw new IllegalStateException("rank " + rank + " claims memory for " + packet + " while " + lent + " holds some");
        }
        if (!lends || closed || outbound.size() >= linkCapacity) {
            return false;
        }
        lent = packet;
        claims++;
        packet.payload = MemorySegment.ofArray(new byte[length]);
        packet.payloadOffset = 0;
        packet.payloadLength = length;
        return true;
    }

    @Override
    public void abandon(Packet packet) {
        if (packet != lent) {
            throw new IllegalStateException("rank " + rank + " gives back memory " + packet + " never lent");
        }
        lent = null;
        abandoned++;
        packet.payload = null;
        packet.payloadLength = 0;
    }

    @Override
    public boolean send(Packet packet) {
        if (lent != null && packet != lent) {
            throw new IllegalStateException("rank " + rank + " sends " + packet + " while " + lent + " holds lent memory");
        }
        lent = null;
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " has left the fabric");
        }
        int target = packet.target;
        if (target < 0 || target >= network.size()) {
            throw new MpiException(ErrorClass.ERR_RANK, "target rank must be in [0, " + network.size() + "), got " + target);
        }
        if (network.endpoint(target).isClosed()) {
            throw new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + target + " has left the job");
        }
        if (outbound.size() >= linkCapacity) {
            refused++;
            return false;
        }
        packet.source = rank;
        outbound.add(packet);
        network.sent(packet, this);
        return true;
    }

    /** Delivers up to {@code limit} of what is due, in the order it happened. */
    @Override
    public int poll(PacketHandler handler, int limit) {
        int n = 0;
        Due d;
        while (n < limit && !closed && (d = due.poll()) != null) {
            switch (d.kind) {
                case ARRIVED -> handler.onPacket(d.packet);
                case RELEASED -> handler.onReleased(d.packet);
                case DEPARTED -> handler.onPeerFailed(d.peer, d.reason);
            }
            n++;
        }
        return n;
    }

    /**
     * The rank is done with an inbound packet: it goes back to the endpoint that sent it (due at
     * that rank's next poll, unless it has left), or, if a test wrote it in, to {@link #readReleased}.
     */
    @Override
    public void release(Packet packet) {
        EmbeddedFabric sender = network.takeSender(packet);
        if (sender == null) {
            released.add(packet);
        } else if (!sender.closed) {
            sender.due(new Due(Kind.RELEASED, packet, -1, null));
        }
    }

    @Override
    public boolean hasPending() {
        return !closed && !due.isEmpty();
    }

    /** Sets what runs whenever something becomes due to this rank (on the thread that made it due). */
    @Override
    public void onActivity(Runnable wakeup) {
        this.activity = wakeup;
    }

    /**
     * Leaves the network: what this rank sent is still carried, then every other rank learns of
     * its departure at its next poll; what was due to it is dropped, never released.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            due.clear();
            network.left(this);
        }
    }

    // ---- the test's side ----------------------------------------------------------------------

    /** @return the oldest packet this rank sent that the network has not carried yet, taken; or null */
    public Packet readOutbound() {
        return takeOutbound();
    }

    /** @return packets this rank sent that wait to be carried */
    public int outboundCount() {
        return outbound.size();
    }

    /**
     * Makes {@code packet} arrive at this rank's next poll, after whatever is due already: a packet
     * a test made (with its {@code source} set), or one read from another rank's outbound queue
     * (released back to that rank when this one is done with it).
     *
     * @throws IllegalStateException if this rank has left
     */
    public void writeInbound(Packet packet) {
        if (closed) {
            throw new IllegalStateException("rank " + rank + " has left the network");
        }
        arrive(packet);
    }

    /**
     * Hands back a packet this rank sent, as its receiver would when done with it: due, as a
     * release, at this rank's next poll.
     *
     * @throws IllegalArgumentException if this rank did not send {@code packet} or has had it back
     */
    public void releaseOutbound(Packet packet) {
        if (network.senderOf(packet) != this) {
            throw new IllegalArgumentException("rank " + rank + " did not send " + packet + " or has had it back");
        }
        outbound.remove(packet);
        release(packet);
    }

    /** @return the oldest packet a test wrote in that this rank has released, taken; or null */
    public Packet readReleased() {
        return released.poll();
    }

    /** Makes this rank learn, at its next poll and after whatever is due already, that {@code peer} is gone. */
    public void failPeer(int peer, String reason) {
        due(new Due(Kind.DEPARTED, null, peer, reason));
    }

    /**
     * Bounds the packets that may wait in this rank's outbound queue: {@link #send} refuses more
     * (returns false, the sender keeps the packet) until the network carries some or a test reads
     * them. 0 refuses everything; {@link Integer#MAX_VALUE} (the default) nothing.
     */
    public void linkCapacity(int packets) {
        if (packets < 0) {
            throw new IllegalArgumentException("link capacity must be non-negative, got " + packets);
        }
        this.linkCapacity = packets;
    }

    /** @return sends refused because the link was full, so far */
    public long refusedSends() {
        return refused;
    }

    /** @return events due at this rank's next poll (arrivals, releases, departures) */
    public int dueCount() {
        return due.size();
    }

    /** @return whether this rank has left the network */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "EmbeddedFabric[rank " + rank + " of " + network.size() + ", outbound " + outbound.size()
                + ", due " + due.size() + (closed ? ", closed]" : "]");
    }

    // ---- the network's side -------------------------------------------------------------------

    Packet takeOutbound() {
        return outbound.poll();
    }

    void arrive(Packet p) {
        due(new Due(Kind.ARRIVED, p, -1, null));
    }

    private void due(Due d) {
        due.add(d);
        activity.run();
    }

    private enum Kind { ARRIVED, RELEASED, DEPARTED }

    /** One thing due at the next poll. */
    private record Due(Kind kind, Packet packet, int peer, String reason) {
    }
}
