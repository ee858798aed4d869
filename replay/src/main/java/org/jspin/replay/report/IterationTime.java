package org.jspin.replay.report;

import java.util.Arrays;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.engine.ReplayResult;

/**
 * A program's time per iteration in a replay, from the marks its ranks left at iteration boundaries
 * ({@code Mpi.markIteration}): each rank's iterations are the intervals between its consecutive
 * marks, and the iteration reported is the slowest rank's median one (the upper median of an even
 * count), so that the JIT's first iterations and a collector's pause do not move it. Its parts are
 * that rank's in that same interval, so they belong to the time they sit beside: compute and pack
 * together never exceed it.
 *
 * @param nic        the NIC replayed
 * @param iterations the intervals between marks, per rank
 * @param medianNs   the slowest rank's median interval, ns
 * @param meanNs     the most any rank took from its first mark to its last, over the intervals, ns
 * @param computeNs  what that rank computed in its median interval, ns
 * @param cpuPackNs  what its CPU packed and unpacked in it, ns
 * @param nicNs      what its NIC ran handlers for in it (messages it started or matched), ns
 */
public record IterationTime(String nic, int iterations, long medianNs, double meanNs, long computeNs, long cpuPackNs,
                            long nicNs) {
    /** @return whether every rank reached the same number of marks, at least two (one iteration) */
    public static boolean marked(ReplayResult r) {
        int k = r.marks(0);
        for (int rank = 1; rank < r.ranks(); rank++) {
            if (r.marks(rank) != k) return false;
        }
        return k >= 2;
    }

    /**
     * @return the replay's time per iteration
     * @throws MpiException ERR_ARG when ranks reached different numbers of marks, or fewer than two
     */
    public static IterationTime of(ReplayResult r) {
        if (!marked(r)) {
            StringBuilder counts = new StringBuilder();
            for (int rank = 0; rank < r.ranks() && rank < 8; rank++) {
                counts.append(rank == 0 ? "" : ", ").append("rank ").append(rank).append(' ').append(r.marks(rank));
            }
            throw new MpiException(ErrorClass.ERR_ARG, "no time per iteration: every rank must mark at least two"
                    + " iteration boundaries, the same number each (marks: " + counts
                    + (r.ranks() > 8 ? ", ..." : "") + ")");
        }
        int k = r.marks(0);
        int intervals = k - 1;
        long[] sorted = new long[intervals];
        int slowest = 0;
        int at = 0;
        long median = -1;
        long longestSpan = 0;
        for (int rank = 0; rank < r.ranks(); rank++) {
            for (int i = 0; i < intervals; i++) sorted[i] = r.markNs(rank, i + 1) - r.markNs(rank, i);
            Arrays.sort(sorted);
            long m = sorted[intervals / 2];
            if (m > median) {
                median = m;
                slowest = rank;
            }
            longestSpan = Math.max(longestSpan, r.markNs(rank, k - 1) - r.markNs(rank, 0));
        }
        while (r.markNs(slowest, at + 1) - r.markNs(slowest, at) != median) at++;
        long compute = r.computeAtMarkNs(slowest, at + 1) - r.computeAtMarkNs(slowest, at);
        long pack = r.cpuPackAtMarkNs(slowest, at + 1) - r.cpuPackAtMarkNs(slowest, at);
        long nic = r.nicAtMarkNs(slowest, at + 1) - r.nicAtMarkNs(slowest, at);
        return new IterationTime(r.nic(), intervals, median, longestSpan / (double) intervals, compute, pack, nic);
    }
}
