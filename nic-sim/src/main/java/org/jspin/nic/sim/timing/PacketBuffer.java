package org.jspin.nic.sim.timing;

/**
 * The NIC's packet buffer, for back-pressure: the bytes packets hold in it from their arrival until
 * their handler's DMA writes complete, and when each holder lets go.
 */
final class PacketBuffer {
    private final long capacity;
    private final ReleaseQueue releases = new ReleaseQueue();
    private long held;

    /** @param capacity bytes the buffer holds ({@code packet-buffer}) */
    PacketBuffer(long capacity) {
        this.capacity = capacity;
    }

    /** @return bytes held now */
    long held() {
        return held;
    }

    /** @return whether {@code bytes} more fit beside those held */
    boolean fits(long bytes) {
        return held + bytes <= capacity;
    }

    /** A packet of {@code bytes} takes its place (whether or not it fits: a packet larger than the buffer goes in alone). */
    void take(long bytes) {
        held += bytes;
    }

    /** The holder of {@code bytes} will let go at {@code time}. */
    void releaseAt(long time, long bytes) {
        releases.add(time, bytes);
    }

    /** Lets go every holder whose time is {@code t} or earlier. */
    void releaseUntil(long t) {
        while (!releases.isEmpty() && releases.firstTime() <= t) {
            releaseFirst();
        }
    }

    /** @return whether any holder is still to let go */
    boolean releasing() {
        return !releases.isEmpty();
    }

    /**
     * Lets go the holder that lets go first (there must be one).
     *
     * @return when it let go
     */
    long releaseFirst() {
        long t = releases.firstTime();
        held -= releases.firstBytes();
        releases.removeFirst();
        return t;
    }
}
