package org.jspin.nic.sim.memory;

/**
 * The NIC's handler memory as a capacity: what the messages in progress keep there (datatype
 * descriptions, checkpoints, segments, iovec batches) is reserved when a message starts and released
 * when it ends; a message whose state does not fit is handled by the host instead.
 */
public final class NicMemory {
    private final long capacity;
    private long used;
    private long peak;

    /** @param capacity bytes of handler memory */
    public NicMemory(long capacity) {
        this.capacity = capacity;
    }

    /** @return bytes not reserved */
    public long free() {
        return capacity - used;
    }

    /** @return the capacity */
    public long capacity() {
        return capacity;
    }

    /** @return bytes reserved now */
    public long used() {
        return used;
    }

    /** @return the most bytes ever reserved at once */
    public long peak() {
        return peak;
    }

    /** @return whether {@code bytes} were reserved (false, and nothing reserved, if they do not fit) */
    public boolean reserve(long bytes) {
        if (bytes > free()) {
            return false;
        }
        used += bytes;
        peak = Math.max(peak, used);
        return true;
    }

    /** Gives back {@code bytes} reserved earlier. */
    public void release(long bytes) {
        used -= bytes;
    }
}
