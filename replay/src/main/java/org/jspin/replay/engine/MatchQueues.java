package org.jspin.replay.engine;

import java.util.Arrays;

import org.jspin.replay.schedule.Schedule;

/**
 * Each rank's posted-receive queue or unexpected-message queue: FIFO lists searched from the oldest,
 * where {@link Schedule#ANY} on either side matches any source or tag (LogGOPSim's LIST_MATCH
 * {@code match}). Entries live in pooled primitive arrays with a free list, so matching allocates nothing.
 */
final class MatchQueues {
    private final int[] head;
    private final int[] tail;
    private int[] src = new int[64];
    private int[] tag = new int[64];
    private int[] op = new int[64];
    private long[] time = new long[64];
    private int[] next = new int[64];
    private int free = -1;
    private int used;
    private int live;

    MatchQueues(int ranks) {
        head = new int[ranks];
        tail = new int[ranks];
        Arrays.fill(head, -1);
        Arrays.fill(tail, -1);
    }

    /** Appends an entry to {@code rank}'s queue. */
    void add(int rank, int source, int entryTag, int operation, long at) {
        int e;
        if (free >= 0) {
            e = free;
            free = next[e];
        } else {
            if (used == src.length) grow();
            e = used++;
        }
        src[e] = source;
        tag[e] = entryTag;
        op[e] = operation;
        time[e] = at;
        next[e] = -1;
        if (tail[rank] < 0) head[rank] = e; else next[tail[rank]] = e;
        tail[rank] = e;
        live++;
    }

    /**
     * Removes the oldest entry of {@code rank}'s queue that matches {@code source} and {@code wanted}.
     *
     * @return the entry's slot (read it with {@link #op(int)}, {@link #source(int)}, {@link #time(int)}
     *         before the next {@link #add}), or -1 when none matches
     */
    int take(int rank, int source, int wanted) {
        int prev = -1;
        for (int e = head[rank]; e >= 0; prev = e, e = next[e]) {
            if ((source == Schedule.ANY || src[e] == Schedule.ANY || src[e] == source)
                    && (wanted == Schedule.ANY || tag[e] == Schedule.ANY || tag[e] == wanted)) {
                if (prev < 0) head[rank] = next[e]; else next[prev] = next[e];
                if (tail[rank] == e) tail[rank] = prev;
                next[e] = free;
                free = e;
                live--;
                return e;
            }
        }
        return -1;
    }

    int op(int slot) { return op[slot]; }

    int source(int slot) { return src[slot]; }

    long time(int slot) { return time[slot]; }

    /** @return whether no rank's queue holds an entry */
    boolean isEmpty() { return live == 0; }

    /** @return the operations left in {@code rank}'s queue, oldest first */
    int[] left(int rank) {
        int n = 0;
        for (int e = head[rank]; e >= 0; e = next[e]) n++;
        int[] ops = new int[n];
        n = 0;
        for (int e = head[rank]; e >= 0; e = next[e]) ops[n++] = op[e];
        return ops;
    }

    private void grow() {
        int n = src.length * 2;
        src = Arrays.copyOf(src, n);
        tag = Arrays.copyOf(tag, n);
        op = Arrays.copyOf(op, n);
        time = Arrays.copyOf(time, n);
        next = Arrays.copyOf(next, n);
    }
}
