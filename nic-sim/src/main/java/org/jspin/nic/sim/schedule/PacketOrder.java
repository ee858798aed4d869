package org.jspin.nic.sim.schedule;

import java.util.SplittableRandom;

/**
 * The order in which a chunk's NIC packets reach the handlers: in order, or (out-of-order delivery,
 * which the paper does not model) permuted within consecutive windows of W packets, so that no
 * packet moves more than W - 1 places. Deterministic: the permutation depends only on the seed and
 * the message's sequence number.
 */
public final class PacketOrder {
    private final int window;
    private final SplittableRandom random;

    /**
     * @param window  packets per window (1: in order)
     * @param seed    the configured seed
     * @param message the message's sequence number on this NIC (0, 1, ...)
     */
    public PacketOrder(int window, long seed, long message) {
        this.window = window;
        this.random = window > 1 ? new SplittableRandom(seed * 0x9E3779B97F4A7C15L + message) : null;
    }

    /** Fills {@code order[0..n)} with the arrival order of packets {@code 0..n-1} of one chunk. */
    public void arrange(int[] order, int n) {
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (random == null) {
            return;
        }
        for (int start = 0; start < n; start += window) {
            int end = Math.min(n, start + window);
            for (int i = end - 1; i > start; i--) {
                int j = start + random.nextInt(i - start + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
    }
}
