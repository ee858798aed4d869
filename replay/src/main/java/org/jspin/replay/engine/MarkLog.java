package org.jspin.replay.engine;

import java.util.Arrays;

/**
 * When each rank's CPU reached each of its marks in a replay, and how much it had computed, packed and
 * kept its NIC busy by then: what an iteration between two marks is timed from. Marks are few (one per
 * iteration), so a rank's log grows by copying.
 */
final class MarkLog {
    private static final int FIELDS = 4;
    private static final int TIME = 0;
    private static final int COMPUTE = 1;
    private static final int PACK = 2;
    private static final int NIC = 3;

    private final long[][] entries;
    private final int[] counts;

    MarkLog(int ranks) {
        entries = new long[ranks][];
        counts = new int[ranks];
    }

    void add(int rank, long time, long compute, long pack, long nic) {
        long[] e = entries[rank];
        int at = counts[rank] * FIELDS;
        if (e == null) {
            e = entries[rank] = new long[FIELDS * 8];
        } else if (at == e.length) {
            e = entries[rank] = Arrays.copyOf(e, e.length * 2);
        }
        e[at + TIME] = time;
        e[at + COMPUTE] = compute;
        e[at + PACK] = pack;
        e[at + NIC] = nic;
        counts[rank]++;
    }

    int count(int rank) { return counts[rank]; }

    long time(int rank, int mark) { return field(rank, mark, TIME); }

    long compute(int rank, int mark) { return field(rank, mark, COMPUTE); }

    long pack(int rank, int mark) { return field(rank, mark, PACK); }

    long nic(int rank, int mark) { return field(rank, mark, NIC); }

    private long field(int rank, int mark, int field) {
        if (mark < 0 || mark >= counts[rank]) {
            throw new IndexOutOfBoundsException("rank " + rank + " has " + counts[rank] + " marks, not " + (mark + 1));
        }
        return entries[rank][mark * FIELDS + field];
    }
}
