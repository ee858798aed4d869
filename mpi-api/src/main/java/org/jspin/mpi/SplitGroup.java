package org.jspin.mpi;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The group {@code MPI_Comm_split} makes for one color: the ranks that chose it, ordered by key
 * and then by their rank in the parent, as world ranks, and this rank's place among them.
 *
 * @param worldRanks the new communicator's ranks, as world ranks
 * @param rank       this rank in it
 */
record SplitGroup(int[] worldRanks, int rank) {
    /**
     * @param colorKeys  every parent rank's color and key, one pair after another (from an allgather)
     * @param color      this rank's color (not UNDEFINED)
     * @param worldRanks the parent's ranks, as world ranks
     * @param rank       this rank in the parent
     */
    static SplitGroup of(int[] colorKeys, int color, int[] worldRanks, int rank) {
        int[] members = IntStream.range(0, worldRanks.length).filter(r -> colorKeys[2 * r] == color).boxed()
                .sorted((a, b) -> colorKeys[2 * a + 1] != colorKeys[2 * b + 1]
                        ? Integer.compare(colorKeys[2 * a + 1], colorKeys[2 * b + 1]) : Integer.compare(a, b))
                .mapToInt(Integer::intValue).toArray();
        int[] group = new int[members.length];
        int newRank = -1;
        for (int i = 0; i < members.length; i++) {
            group[i] = worldRanks[members[i]];
            if (members[i] == rank) {
                newRank = i;
            }
        }
        return new SplitGroup(group, newRank);
    }

    @Override
    public String toString() {
        return "SplitGroup[" + Arrays.toString(worldRanks) + ", rank " + rank + "]";
    }
}
