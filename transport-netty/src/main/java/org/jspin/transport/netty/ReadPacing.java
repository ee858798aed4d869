package org.jspin.transport.netty;

import org.jspin.nic.fabric.Mailbox;

/**
 * Pauses reading from the sockets while the engine falls behind (too many arrivals undelivered in
 * the mailbox) and resumes once it caught up, which TCP turns into back-pressure on the senders.
 */
final class ReadPacing {
    /** Reading pauses above this many undelivered arrivals and resumes below a quarter of it. */
    static final int HIGH_WATER = 4096;

    private final PeerLinks links;
    private final Mailbox mailbox;
    private volatile boolean paused;

    ReadPacing(PeerLinks links, Mailbox mailbox) {
        this.links = links;
        this.mailbox = mailbox;
    }

    /** @return whether reading is paused now */
    boolean paused() {
        return paused;
    }

    /** A packet arrived in the mailbox: pauses reading above the high water mark. */
    void arrived() {
        if (!paused && mailbox.arrivals() > HIGH_WATER) {
            paused = true;
            links.autoRead(false);
        }
    }

    /** The engine took arrivals from the mailbox: resumes reading once few are left. */
    void delivered() {
        if (paused && mailbox.arrivals() < HIGH_WATER / 4) {
            paused = false;
            links.autoRead(true);
        }
    }
}
