package org.jspin.transport.shm;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.nic.fabric.PacketHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which peers of a shm fabric have left (closed their ring), died, or been failed for what they
 * wrote: looked at every so often, and reported to the engine once each, a departure only once
 * whatever the peer wrote before it has been delivered.
 */
final class Departures {
    private static final Logger LOG = LoggerFactory.getLogger(Departures.class);
    /** How often peers are looked at: each look reads every peer's {@code /proc/<pid>/stat}. */
    static final long LIVENESS_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final long lookEvery;
    private final int rank;
    /** Every rank's ring, indexed by rank; null for ranks on other hosts. */
    private final RingFile[] rings;
    private final ManyToOneRingBuffer inbox;
    private final long self = ProcessHandle.current().pid();
    private final boolean[] departing;
    private final boolean[] gone;
    /** A departure was seen and waits to be reported. */
    private boolean departures;
    private long nextLook;
    /** A sleep found the look overdue: the next poll takes it. */
    private boolean lookDue;
    private int polls;

    /**
     * @param inbox     this rank's ring, unblocked when a peer dies in the middle of a record
     * @param lookEvery nanoseconds between looks at the peers ({@link #LIVENESS_NANOS})
     */
    Departures(int rank, RingFile[] rings, ManyToOneRingBuffer inbox, long lookEvery) {
        this.lookEvery = lookEvery;
        this.rank = rank;
        this.rings = rings;
        this.inbox = inbox;
        this.departing = new boolean[rings.length];
        this.gone = new boolean[rings.length];
        this.nextLook = System.nanoTime() + lookEvery;
    }

    /** @return whether rank {@code r} has left, died or failed (its packets are no longer taken, nor sent to it) */
    boolean departed(int r) {
        return gone[r] || departing[r];
    }

    /** @return whether departures wait to be reported */
    boolean pending() {
        return departures;
    }

    /**
     * Once per poll, before the inbox is read: looks at the peers if that is due (the clock is read
     * every 256 polls only, since a poll is a spinning waiter's loop).
     *
     * @return whether departures wait to be reported, once the inbox is drained
     */
    boolean look() {
        boolean leaving = departures;
        if ((++polls & 255) == 0 || lookDue) {
            lookDue = false;
            long now = System.nanoTime();
            if (now - nextLook >= 0) {
                nextLook = now + lookEvery;
                leaving |= lookNow();
            }
        }
        return leaving;
    }

    /** @return whether a peer has left (closed its ring) or died since the last look */
    private boolean lookNow() {
        for (int r = 0; r < rings.length; r++) {
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

    /** Tells {@code handler} of every departure seen; @return how many */
    int report(PacketHandler handler) {
        int n = 0;
        for (int r = 0; r < rings.length; r++) {
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

    /** Fails {@code peer} for {@code reason} (what it wrote), telling {@code handler} at once. */
    void fail(PacketHandler handler, int peer, String reason) {
        LOG.error("rank {}: {}", rank, reason);
        if (!gone[peer]) {
            gone[peer] = true;
            handler.onPeerFailed(peer, reason);
        }
    }

    /**
     * For a caller about to sleep: @return how long it may, at most {@code nanos}, before the next
     * look; when that is now (0), the next poll looks
     */
    long untilLook(long nanos) {
        long wait = until(nanos);
        lookDue = wait == 0;
        return wait;
    }

    /** As {@link #untilLook}, but a look found due before stays due (for a caller that sleeps elsewhere). */
    long untilLookKeepingDue(long nanos) {
        long wait = until(nanos);
        lookDue |= wait == 0;
        return wait;
    }

    private long until(long nanos) {
        return Math.min(nanos, Math.max(0, nextLook - System.nanoTime()));
    }
}
