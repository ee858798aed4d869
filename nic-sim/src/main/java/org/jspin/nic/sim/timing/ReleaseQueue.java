package org.jspin.nic.sim.timing;

import java.util.Arrays;

/**
 * When the holders of the packet buffer let go: (time, bytes) pairs, the earliest time first, in two
 * primitive arrays so that booking a release allocates nothing once the arrays have grown.
 *
 * <p>A binary min-heap on the time alone whose sift rules (a child moves up only when strictly earlier;
 * going down, the right child is taken only when strictly earlier than the left, and the moved entry
 * stops at a child no earlier than it) are those of {@link java.util.PriorityQueue}, so that releases
 * at equal times leave in exactly the order the model has always let them go.
 */
final class ReleaseQueue {
    private long[] times = new long[16];
    private long[] bytes = new long[16];
    private int size;

    /** @return whether no release is booked */
    boolean isEmpty() {
        return size == 0;
    }

    /** @return releases booked */
    int size() {
        return size;
    }

    /** Books {@code held} bytes to be let go at {@code time}. */
    void add(long time, long held) {
        if (size == times.length) {
            times = Arrays.copyOf(times, 2 * size);
            bytes = Arrays.copyOf(bytes, 2 * size);
        }
        int k = size++;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (time >= times[parent]) {
                break;
            }
            times[k] = times[parent];
            bytes[k] = bytes[parent];
            k = parent;
        }
        times[k] = time;
        bytes[k] = held;
    }

    /** @return the earliest release's time (the queue must not be empty) */
    long firstTime() {
        return times[0];
    }

    /** @return the earliest release's bytes (the queue must not be empty) */
    long firstBytes() {
        return bytes[0];
    }

    /** Removes the earliest release (the queue must not be empty). */
    void removeFirst() {
        int n = --size;
        long time = times[n];
        long held = bytes[n];
        int k = 0;
        int half = n >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < n && times[child] > times[right]) {
                child = right;
            }
            if (time <= times[child]) {
                break;
            }
            times[k] = times[child];
            bytes[k] = bytes[child];
            k = child;
        }
        if (n > 0) {
            times[k] = time;
            bytes[k] = held;
        }
    }
}
