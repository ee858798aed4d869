package org.jspin.nic.engine;

import java.util.ArrayDeque;

import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Packet;

/**
 * The packets one rank may have out at once: made on first need up to the configured number, then
 * reused, so the packet path allocates nothing and the pool bounds the staging memory a data path
 * hangs on its packets. The last {@link NicConfig#CONTROL_RESERVE} packets are kept for control
 * traffic (EAGER, RTS, CTS): bulk DATA must not starve the handshakes that let other messages
 * start. Owned by whichever thread runs the protocol core; not thread-safe.
 */
final class PacketPool {
    private final ArrayDeque<Packet> free = new ArrayDeque<>();
    private final int capacity;
    private final Tally inFlight;
    private int made;

    /**
     * @param capacity packets the rank may have out ({@link NicConfig#packets()})
     * @param inFlight where the packets taken and not yet returned are counted
     */
    PacketPool(int capacity, Tally inFlight) {
        this.capacity = capacity;
        this.inFlight = inFlight;
    }

    /** @return a cleared free packet, or null when the pool is used up (data may not take the control reserve) */
    Packet acquire(boolean control) {
        int available = free.size() + (capacity - made);
        if (available == 0 || (!control && available <= NicConfig.CONTROL_RESERVE)) {
            return null;
        }
        Packet p = free.poll();
        if (p == null) {
            p = new Packet();
            made++;
        }
        p.clear();
        inFlight.add(1);
        return p;
    }

    /** Takes back a packet {@link #acquire} gave out (its staging buffer stays with it). */
    void free(Packet p) {
        p.clear();
        free.push(p);
        inFlight.add(-1);
    }
}
