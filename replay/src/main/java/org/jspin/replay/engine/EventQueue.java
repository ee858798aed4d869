package org.jspin.replay.engine;

import java.util.Arrays;

/**
 * The replay's pending events, earliest first; among equal times the one inserted first (its sequence
 * number), as LogGOPSim's active queue with STRICT_ORDER. A binary heap over three parallel primitive
 * arrays, so that pushing and popping allocate nothing once grown.
 */
final class EventQueue {
    private long[] time = new long[256];
    private long[] seq = new long[256];
    private long[] payload = new long[256];
    private int size;
    private long topTime;
    private long topSeq;
    private long topPayload;

    boolean isEmpty() { return size == 0; }

    int size() { return size; }

    /** Inserts an event; among equal {@code at}, the smaller {@code sequence} comes out first. */
    void push(long at, long sequence, long what) {
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            seq = Arrays.copyOf(seq, n);
            payload = Arrays.copyOf(payload, n);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(at, sequence, time[parent], seq[parent])) break;
            time[i] = time[parent];
            seq[i] = seq[parent];
            payload[i] = payload[parent];
            i = parent;
        }
        time[i] = at;
        seq[i] = sequence;
        payload[i] = what;
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #sequence()}, {@link #payload()}. */
    void pop() {
        topTime = time[0];
        topSeq = seq[0];
        topPayload = payload[0];
        int n = --size;
        if (n == 0) return;
        long t = time[n];
        long s = seq[n];
        long p = payload[n];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && before(time[child + 1], seq[child + 1], time[child], seq[child])) child++;
            if (!before(time[child], seq[child], t, s)) break;
            time[i] = time[child];
            seq[i] = seq[child];
            payload[i] = payload[child];
            i = child;
        }
        time[i] = t;
        seq[i] = s;
        payload[i] = p;
    }

    long time() { return topTime; }

    long sequence() { return topSeq; }

    long payload() { return topPayload; }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
