package org.jspin.nic.fabric.embedded;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;

/**
 * The ranks of one job on a fabric with no threads and no sockets, for tests and for stepping
 * protocol cores by hand, as Netty's {@code EmbeddedChannel} does for one handler. Each rank has
 * an {@link EmbeddedFabric} endpoint; a packet it sends waits in its outbound queue until
 * {@link #route} carries it to its target (or a test takes it with
 * {@link EmbeddedFabric#readOutbound}), and is delivered at the target's next poll. Everything
 * happens on the calling thread, in an order that depends only on the calls made, so a test that
 * fails fails the same way every time.
 *
 * <p>Order: each sender's packets reach each target in the order sent (the non-overtaking rule
 * rests on it), and an endpoint's poll delivers arrivals, released packets and departures of peers
 * in the order they happened, so a departure never overtakes what the peer did before it left.
 *
 * <p>To wire cores to each other, give {@link #runUntilQuiescent} one round of each, say
 * {@code network.runUntilQuiescent(a::round, b::round)}.
 *
 * <p>Not thread-safe: one thread steps every rank of a network.
 */
public final class EmbeddedNetwork {
    /** The largest payload a packet may carry, unless the network is made with another. */
    public static final int DEFAULT_MAX_PAYLOAD = 1 << 20;
    /** Steps {@link #runUntilQuiescent(IntSupplier...)} takes before it gives up. */
    public static final int DEFAULT_MAX_STEPS = 100_000;

    private final EmbeddedFabric[] endpoints;
    /** Packets an endpoint sent that nobody has released yet, with their sender. */
    private final Map<Packet, EmbeddedFabric> unreleased = new IdentityHashMap<>();
    private Consumer<Packet> tap = p -> { };

    /** A network of {@code size} ranks carrying payloads up to {@link #DEFAULT_MAX_PAYLOAD}. */
    public EmbeddedNetwork(int size) {
        this(size, DEFAULT_MAX_PAYLOAD);
    }

    /**
     * @param size       ranks in the job
     * @param maxPayload the largest payload a packet may carry ({@code Fabric.maxPayload})
     * @throws MpiException ERR_ARG for a size below 1 or a payload limit below 1
     */
    public EmbeddedNetwork(int size, int maxPayload) {
        if (size < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "an embedded network needs at least one rank, got " + size);
        }
        if (maxPayload < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "the largest payload must be positive, got " + maxPayload);
        }
        this.endpoints = new EmbeddedFabric[size];
        for (int r = 0; r < size; r++) {
            endpoints[r] = new EmbeddedFabric(this, r, maxPayload);
        }
    }

    /** @return ranks in the job */
    public int size() {
        return endpoints.length;
    }

    /**
     * @return rank {@code rank}'s endpoint
     * @throws MpiException ERR_RANK if there is no such rank
     */
    public EmbeddedFabric endpoint(int rank) {
        if (rank < 0 || rank >= endpoints.length) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank must be in [0, " + endpoints.length + "), got " + rank);
        }
        return endpoints[rank];
    }

    /**
     * Sets what is told of every packet {@link #route} carries, just before it is due at its target
     * (to record the protocol as it happens; copy what you need, the packet is reused once released).
     */
    public void tap(Consumer<Packet> tap) {
        this.tap = tap;
    }

    /**
     * Carries every packet waiting in an outbound queue to its target, sender by sender in rank
     * order, each sender's in the order sent. A packet for a rank that has left is dropped, as the
     * wire to a dead process drops it (its sender learns of the departure instead).
     *
     * @return packets carried (or dropped)
     */
    public int route() {
        int n = 0;
        for (EmbeddedFabric e : endpoints) {
            n += routeFrom(e);
        }
        return n;
    }

    /**
     * One step: one round of each rank ({@code rounds}, say {@code core::round}), then
     * {@link #route}.
     *
     * @return work done by the rounds plus packets carried; 0 when nothing moved
     */
    public int step(IntSupplier... rounds) {
        int work = 0;
        for (IntSupplier round : rounds) {
            work += round.getAsInt();
        }
        return work + route();
    }

    /**
     * {@link #step}s until a step does nothing: no round did any work and no packet was carried.
     * Whatever is still due then waits for outside help (a rank that is not stepped, a link whose
     * capacity is 0).
     *
     * @return steps taken, the last (idle) one included
     * @throws IllegalStateException if the ranks are still busy after {@link #DEFAULT_MAX_STEPS}
     */
    public int runUntilQuiescent(IntSupplier... rounds) {
        return runUntilQuiescent(DEFAULT_MAX_STEPS, rounds);
    }

    /**
     * {@link #runUntilQuiescent(IntSupplier...)} with another bound.
     *
     * @throws IllegalStateException if the ranks are still busy after {@code maxSteps}
     */
    public int runUntilQuiescent(int maxSteps, IntSupplier... rounds) {
        for (int steps = 1; steps <= maxSteps; steps++) {
            if (step(rounds) == 0) {
                return steps;
            }
        }
        throw new IllegalStateException("the network is still busy after " + maxSteps + " steps");
    }

    // ---- the endpoints' side ------------------------------------------------------------------

    void sent(Packet p, EmbeddedFabric sender) {
        unreleased.put(p, sender);
    }

    /** @return the endpoint that sent {@code p} and has not had it back, removed; null if none */
    EmbeddedFabric takeSender(Packet p) {
        return unreleased.remove(p);
    }

    /** @return the endpoint that sent {@code p} and has not had it back, or null */
    EmbeddedFabric senderOf(Packet p) {
        return unreleased.get(p);
    }

    int routeFrom(EmbeddedFabric sender) {
        int n = 0;
        Packet p;
        while ((p = sender.takeOutbound()) != null) {
            EmbeddedFabric target = endpoints[p.target];
            tap.accept(p);
            if (target.isClosed()) {
                unreleased.remove(p);
            } else {
                target.arrive(p);
            }
            n++;
        }
        return n;
    }

    /** {@code gone} has left: what it sent is on its way first, then every other rank learns of it. */
    void left(EmbeddedFabric gone) {
        routeFrom(gone);
        for (EmbeddedFabric e : endpoints) {
            if (e != gone && !e.isClosed()) {
                e.failPeer(gone.rank(), "rank " + gone.rank() + " left the job");
            }
        }
    }
}
