package org.jspin.replay.engine;

import java.util.Arrays;

/**
 * The replay's pending events, earliest first; among equal times the one inserted first (its sequence
 * number), as LogGOPSim's active queue with STRICT_ORDER. A binary heap of (time, sequence, payload)
 * triples interleaved in one primitive array, so that a sift touches one cache line per level and
 * pushing and popping allocate nothing once grown.
 */
final class EventQueue {
    private long[] heap = new long[3 * 256];
    private int size;
    private long topTime;
    private long topSeq;
    private long topPayload;

    boolean isEmpty() { return size == 0; }

    int size() { return size; }

    /** Inserts an event; among equal {@code at}, the smaller {@code sequence} comes out first. */
    void push(long at, long sequence, long what) {
        if (3 * size == heap.length) heap = Arrays.copyOf(heap, heap.length * 2);
        long[] h = heap;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = 3 * parent;
            if (!before(at, sequence, h[p], h[p + 1])) break;
            move(h, p, 3 * i);
            i = parent;
        }
        set(h, 3 * i, at, sequence, what);
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #sequence()}, {@link #payload()}. */
    void pop() {
        long[] h = heap;
        topTime = h[0];
        topSeq = h[1];
        topPayload = h[2];
        int n = --size;
        if (n == 0) return;
        long t = h[3 * n];
        long s = h[3 * n + 1];
        long p = h[3 * n + 2];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) break;
            int c = 3 * child;
            if (child + 1 < n && before(h[c + 3], h[c + 4], h[c], h[c + 1])) {
                child++;
                c += 3;
            }
            if (!before(h[c], h[c + 1], t, s)) break;
            move(h, c, 3 * i);
            i = child;
        }
        set(h, 3 * i, t, s, p);
    }

    long time() { return topTime; }

    long sequence() { return topSeq; }

    long payload() { return topPayload; }

    private static void move(long[] h, int from, int to) {
        set(h, to, h[from], h[from + 1], h[from + 2]);
    }

    private static void set(long[] h, int at, long time, long sequence, long payload) {
        h[at] = time;
        h[at + 1] = sequence;
        h[at + 2] = payload;
    }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
