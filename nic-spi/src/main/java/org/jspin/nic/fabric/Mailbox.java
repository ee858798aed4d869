package org.jspin.nic.fabric;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntFunction;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * What an endpoint has to deliver to its engine: arrivals, released packets of its own, and
 * departures of peers, in the order {@link #deliver} keeps. The queues are allocation-free
 * many-to-one arrays, so any thread may offer and only the endpoint's owner takes.
 */
public final class Mailbox {
    private final ManyToOneConcurrentArrayQueue<Packet> inbound;
    private final ManyToOneConcurrentArrayQueue<Packet> released;
    private final Queue<Integer> departed = new ConcurrentLinkedQueue<>();

    /**
     * @param inboundCapacity  arrivals that may wait
     * @param releasedCapacity released packets that may wait (size it so that an offer never fails)
     */
    public Mailbox(int inboundCapacity, int releasedCapacity) {
        this.inbound = new ManyToOneConcurrentArrayQueue<>(inboundCapacity);
        this.released = new ManyToOneConcurrentArrayQueue<>(releasedCapacity);
    }

    /** @return false if the inbound queue is full */
    public boolean arrive(Packet p) {
        return inbound.offer(p);
    }

    /** @return false if the released queue is full */
    public boolean release(Packet p) {
        return released.offer(p);
    }

    /** Peer {@code rank} has gone. */
    public void depart(int rank) {
        departed.add(rank);
    }

    /** @return arrivals waiting */
    public int arrivals() {
        return inbound.size();
    }

    /** @return the next arrival, or null (for an endpoint emptying itself as it closes) */
    public Packet takeArrival() {
        return inbound.poll();
    }

    /** @return whether anything waits */
    public boolean hasPending() {
        return !inbound.isEmpty() || !released.isEmpty() || !departed.isEmpty();
    }

    /**
     * Delivers up to {@code limit} events: releases, then arrivals, then departures. A peer's
     * packets and releases are queued before the notice of its departure, so only the departures
     * already noticed before the queues are drained are reported, and only once both have been
     * drained: a departure must never overtake what the peer did before it left (say the release
     * that completes a send it received).
     *
     * @param reason what to tell the handler about a departed rank
     * @return events delivered
     */
    public int deliver(PacketHandler handler, int limit, IntFunction<String> reason) {
        int departures = departed.size();
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
                int gone = departed.poll();
                handler.onPeerFailed(gone, reason.apply(gone));
                n++;
            }
        }
        return n;
    }
}
