package org.jspin.nic.fabric.local;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Mailbox;
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
    private final Mailbox mailbox;
    private volatile Runnable wakeup = () -> { };
    private volatile boolean closed;

    private LocalEndpoint() {
        this.hub = null;
        this.rank = -1;
        this.mailbox = null;
        this.closed = true;
    }

    LocalEndpoint(LocalHub hub, int rank, int inboundCapacity) {
        this.hub = hub;
        this.rank = rank;
        this.mailbox = new Mailbox(inboundCapacity, RELEASE_CAPACITY);
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

    /**
     * A rendezvous message's first chunk travels with its RTS: for a contiguous send the RTS shows
     * it where it lies in the sender's buffer, and a receive already posted copies it at once, so a
     * message of up to a chunk takes one hand-over between the ranks rather than three (RTS, CTS,
     * DATA). A receive posted late costs nothing more: the engine holds the RTS until its next
     * round (a receive posted by then still takes the bytes from the sender's buffer), then drops
     * its bytes, and the CTS asks for them again. (A packed send sends its RTS alone, since that
     * drop would cost it a second pack; it packs its first chunk while the CTS is on the way.)
     * Measured against an RTS alone: docs/PERFORMANCE.md, "LocalEndpoint".
     */
    @Override
    public int preferredRtsPayload() {
        return preferredChunkSize();
    }

    /** Every rank of the in-JVM fabric is a thread of this process, on this host. */
    @Override
    public int ranksOnHost() {
        return hub.size();
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
        if (!peer.mailbox.arrive(packet)) {
            return false;
        }
        peer.wakeup.run();
        return true;
    }

    @Override
    public int poll(PacketHandler handler, int limit) {
        return mailbox.deliver(handler, limit, gone -> "rank " + gone + " left the job");
    }

    @Override
    public void release(Packet packet) {
        LocalEndpoint owner = hub.endpoint(packet.source);
        if (owner == null || owner == CLOSED || owner.closed) {
            return; // its sender is gone and will not reuse it
        }
        while (!owner.mailbox.release(packet)) {
            Thread.onSpinWait(); // cannot stay full: unreleased packets are bounded by the sender's pool
        }
        owner.wakeup.run();
    }

    @Override
    public boolean hasPending() {
        return mailbox.hasPending();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        this.wakeup = wakeup;
    }

    void peerGone(int peer) {
        mailbox.depart(peer);
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
