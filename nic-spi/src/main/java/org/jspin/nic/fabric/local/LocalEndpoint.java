package org.jspin.nic.fabric.local;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;

/**
 * One rank's endpoint of the in-JVM fabric. A packet travels by reference: the sender's packet
 * object is offered to the receiver's inbound queue and, once the receiver releases it, to the
 * sender's release queue. Both queues are allocation-free many-to-one arrays; a full inbound queue
 * makes {@link #send} return false (back-pressure), never block, so two ranks sending to each
 * other cannot deadlock.
 */
final class LocalEndpoint implements Fabric {
    /** Marks a slot whose rank has left the job. */
    static final LocalEndpoint CLOSED = new LocalEndpoint();

    /**
     * Packets one rank can have unreleased is bounded by its engine's pool, far below this; the
     * release queue is sized so that an offer never fails.
     */
    private static final int RELEASE_CAPACITY = 1 << 16;
    /** Payload limit per packet: large enough that copies dominate per-packet costs. */
    private static final int MAX_PAYLOAD = 1 << 20;

    private final LocalHub hub;
    private final int rank;
    private final ManyToOneConcurrentArrayQueue<Packet> inbound;
    private final ManyToOneConcurrentArrayQueue<Packet> released;
    private final Queue<Integer> failedPeers = new ConcurrentLinkedQueue<>();
    private volatile Runnable wakeup = () -> { };
    private volatile boolean closed;

    private LocalEndpoint() {
        this.hub = null;
        this.rank = -1;
        this.inbound = null;
        this.released = null;
        this.closed = true;
    }

    LocalEndpoint(LocalHub hub, int rank, int inboundCapacity) {
        this.hub = hub;
        this.rank = rank;
        this.inbound = new ManyToOneConcurrentArrayQueue<>(inboundCapacity);
        this.released = new ManyToOneConcurrentArrayQueue<>(RELEASE_CAPACITY);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return hub.size();
    }

    @Override
    public int maxPayload() {
        return MAX_PAYLOAD;
    }

    @Override
    public boolean send(Packet packet) {
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " has left the fabric");
        }
        int target = packet.target;
        if (target < 0 || target >= hub.size()) {
            throw new MpiException(ErrorClass.ERR_RANK, "target rank must be in [0, " + hub.size() + "), got " + target);
        }
        LocalEndpoint peer = hub.endpoint(target);
        if (peer == null) {
            return false; // not attached yet: retried by the engine
        }
        if (peer == CLOSED || peer.closed) {
            throw new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + target + " has left the job");
        }
        packet.source = rank;
        if (!peer.inbound.offer(packet)) {
            return false;
        }
        peer.wakeup.run();
        return true;
    }

    @Override
    public int poll(PacketHandler handler, int limit) {
        // A peer's packets and releases are queued before the notice of its departure. So only the
        // departures already noticed before the queues are drained are reported, and only once
        // both queues have been drained: a departure must never overtake what the peer did before
        // it left (say the release that completes a send it received).
        int departures = failedPeers.size();
        int n = 0;
        Packet p;
        while (n < limit && (p = released.poll()) != null) {
            handler.onReleased(p);
            n++;
        }
        while (n < limit && (p = inbound.poll()) != null) {
            handler.onPacket(p);
            n++;
        }
        if (n < limit || (released.isEmpty() && inbound.isEmpty())) {
            for (int i = 0; i < departures; i++) {
                Integer gone = failedPeers.poll();
                handler.onPeerFailed(gone, "rank " + gone + " left the job");
                n++;
            }
        }
        return n;
    }

    @Override
    public void release(Packet packet) {
        LocalEndpoint owner = hub.endpoint(packet.source);
        if (owner == null || owner == CLOSED || owner.closed) {
            return; // its sender is gone and will not reuse it
        }
        while (!owner.released.offer(packet)) {
            Thread.onSpinWait(); // cannot stay full: unreleased packets are bounded by the sender's pool
        }
        owner.wakeup.run();
    }

    @Override
    public boolean hasPending() {
        return !inbound.isEmpty() || !released.isEmpty() || !failedPeers.isEmpty();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        this.wakeup = wakeup;
    }

    void peerGone(int peer) {
        failedPeers.add(peer);
        wakeup.run();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            hub.detach(this);
        }
    }
}
