package org.jspin.replay.report;

import java.util.Arrays;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.engine.ReplayResult;

/**
 * A program's time per iteration in a replay, from the marks its ranks left at iteration boundaries
 * ({@code Mpi.markIteration}): boundary i of the job is when its last rank reached mark i, and the
 * iteration reported is the median of the intervals between consecutive boundaries, so that the
 * JIT's first iterations and a collector's pause do not move it. Its parts are the slowest rank's in
 * that same interval, so they belong to the time they sit beside.
 *
 * @param nic        the NIC replayed
 * @param iterations the intervals between marks
 * @param medianNs   the median interval, ns
 * @param meanNs     first to last boundary over the intervals, ns
 * @param computeNs  the most any rank computed in the median interval, ns
 * @param cpuPackNs  the most any rank's CPU packed and unpacked in it, ns
 * @param nicNs      the most any rank's NIC ran handlers in it, ns
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
        long[] boundary = new long[k];
        for (int i = 0; i < k; i++) {
            for (int rank = 0; rank < r.ranks(); rank++) boundary[i] = Math.max(boundary[i], r.markNs(rank, i));
        }
        int intervals = k - 1;
        long[] sorted = new long[intervals];
        for (int i = 0; i < intervals; i++) sorted[i] = boundary[i + 1] - boundary[i];
        Arrays.sort(sorted);
        long median = sorted[(intervals - 1) / 2];
        int m = 0;
        while (boundary[m + 1] - boundary[m] != median) m++;
        long compute = 0;
        long pack = 0;
        long nic = 0;
        for (int rank = 0; rank < r.ranks(); rank++) {
            compute = Math.max(compute, r.computeAtMarkNs(rank, m + 1) - r.computeAtMarkNs(rank, m));
            pack = Math.max(pack, r.cpuPackAtMarkNs(rank, m + 1) - r.cpuPackAtMarkNs(rank, m));
            nic = Math.max(nic, r.nicAtMarkNs(rank, m + 1) - r.nicAtMarkNs(rank, m));
        }
        return new IterationTime(r.nic(), intervals, median, (boundary[k - 1] - boundary[0]) / (double) intervals,
                compute, pack, nic);
    }
}
