package org.jspin.nic.sim.timing;

/**
 * The HPUs and the packets waiting for one. A packet bound to an HPU (its strategy fixes it) waits for
 * that HPU; any other takes the earliest free HPU, among HPUs free at once the first in round robin
 * from the one after the last taken so. Packets for any HPU start in arrival order; a bound packet
 * may start before them when its HPU frees first.
 *
 * <p>{@link #take} reports the packet it starts through {@link #slot}, {@link #ready}, {@link #hpu},
 * {@link #start} and {@link #bytes} (fields, not an object: nothing is allocated per packet).
 */
final class HpuPool {
    private final long[] free;
    private final WaitQueue waiting = new WaitQueue();
    private int roundRobin;
    private int slot;
    private long ready;
    private int hpu;
    private long start;
    private long bytes;

    HpuPool(int hpus) {
        this.free = new long[hpus];
    }

    /** @return when {@code h} is free */
    long freeAt(int h) {
        return free[h];
    }

    /** {@code h} is busy until {@code t}. */
    void busyUntil(int h, long t) {
        free[h] = t;
    }

    /** @return the HPU free first (the lowest of those free first) */
    int earliestFree() {
        int best = 0;
        for (int h = 1; h < free.length; h++) {
            if (free[h] < free[best]) {
                best = h;
            }
        }
        return best;
    }

    /** Packet {@code s}, ready at {@code at}, bound to {@code h} (-1: any), holding {@code held} buffer bytes, waits. */
    void await(int s, long at, int h, long held) {
        waiting.add(s, at, h, held);
    }

    /** @return packets waiting */
    int waiting() {
        return waiting.size();
    }

    /** @return when the waiting packet that can start first would start ({@link Long#MAX_VALUE}: none waits) */
    long nextStart() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < waiting.size(); i++) {
            int h = waiting.hpu(i);
            long s = Math.max(waiting.ready(i), h >= 0 ? free[h] : free[earliestFree()]);
            best = Math.min(best, s);
            if (h < 0) {
                break; // packets for any HPU start in arrival order
            }
        }
        return best;
    }

    /** Takes the waiting packet that can start first (one must wait) off the queue, onto its HPU. */
    void take() {
        int pick = -1;
        long best = Long.MAX_VALUE;
        int chosen = -1;
        for (int i = 0; i < waiting.size(); i++) {
            int bound = waiting.hpu(i);
            long at = waiting.ready(i);
            int h = bound >= 0 ? bound : pickFree(at);
            long s = Math.max(at, free[h]);
            if (s < best) {
                best = s;
                pick = i;
                chosen = h;
            }
            if (bound < 0) {
                break;
            }
        }
        slot = waiting.slot(pick);
        ready = waiting.ready(pick);
        bytes = waiting.bytes(pick);
        boolean any = waiting.hpu(pick) < 0;
        waiting.remove(pick);
        if (any) {
            roundRobin = (chosen + 1) % free.length;
        }
        hpu = chosen;
        start = best;
    }

    /** @return the HPU a packet ready at {@code at} takes: the first free one from the round-robin pointer, else the earliest free */
    private int pickFree(long at) {
        for (int k = 0; k < free.length; k++) {
            int h = (roundRobin + k) % free.length;
            if (free[h] <= at) {
                return h;
            }
        }
        return earliestFree();
    }

    /** @return the slot of the packet last taken */
    int slot() {
        return slot;
    }

    /** @return when the packet last taken was ready */
    long ready() {
        return ready;
    }

    /** @return the HPU the packet last taken runs on */
    int hpu() {
        return hpu;
    }

    /** @return when the packet last taken starts */
    long start() {
        return start;
    }

    /** @return the buffer bytes the packet last taken holds */
    long bytes() {
        return bytes;
    }
}
