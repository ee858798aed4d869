package org.jspin.nic.sim.timing;

/**
 * Packets waiting for an HPU, in arrival order: each one's slot, the time it is ready, the HPU its
 * strategy fixes (-1: any) and the bytes it holds in the packet buffer. A ring of four parallel
 * arrays, so that waiting allocates nothing once the ring has grown.
 */
final class WaitQueue {
    private int[] slots = new int[16];
    private long[] ready = new long[16];
    private int[] hpus = new int[16];
    private long[] bytes = new long[16];
    private int head;
    private int size;

    /** @return packets waiting */
    int size() {
        return size;
    }

    /** Packet {@code slot}, ready at {@code readyAt}, for {@code hpu} (-1: any), holding {@code held} bytes, waits last. */
    void add(int slot, long readyAt, int hpu, long held) {
        if (size == slots.length) {
            grow();
        }
        int j = index(size);
        slots[j] = slot;
        ready[j] = readyAt;
        hpus[j] = hpu;
        bytes[j] = held;
        size++;
    }

    /** @return the slot of the {@code i}-th waiting packet (0: the first to have arrived) */
    int slot(int i) {
        return slots[index(i)];
    }

    /** @return when the {@code i}-th waiting packet was ready */
    long ready(int i) {
        return ready[index(i)];
    }

    /** @return the HPU the {@code i}-th waiting packet is bound to (-1: any) */
    int hpu(int i) {
        return hpus[index(i)];
    }

    /** @return the bytes the {@code i}-th waiting packet holds */
    long bytes(int i) {
        return bytes[index(i)];
    }

    /** Removes the {@code i}-th waiting packet; the others keep their order. */
    void remove(int i) {
        for (int k = i; k > 0; k--) {
            int to = index(k);
            int from = index(k - 1);
            slots[to] = slots[from];
            ready[to] = ready[from];
            hpus[to] = hpus[from];
            bytes[to] = bytes[from];
        }
        head = index(1);
        size--;
    }

    private int index(int i) {
        int j = head + i; // below twice the length: a subtraction, not a division
        return j < slots.length ? j : j - slots.length;
    }

    private void grow() {
        int n = 2 * size;
        int[] s = new int[n];
        long[] r = new long[n];
        int[] h = new int[n];
        long[] b = new long[n];
        for (int i = 0; i < size; i++) {
            int j = index(i);
            s[i] = slots[j];
            r[i] = ready[j];
            h[i] = hpus[j];
            b[i] = bytes[j];
        }
        slots = s;
        ready = r;
        hpus = h;
        bytes = b;
        head = 0;
    }
}
