package org.jspin.bootstrap.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * The ranks that exited non-zero within a short window, in the order they exited, and which of them
 * the launcher blames: a rank killed by a signal (exit code above 128) before its peers, which may
 * notice its death within milliseconds and exit first; otherwise the first to fail.
 */
final class FailedRanks {
    private final List<int[]> failed = new ArrayList<>();

    /** Records that {@code rank} exited with {@code code} (non-zero). */
    void add(int rank, int code) {
        failed.add(new int[] {rank, code});
    }

    /** @return the failed ranks, in the order they exited */
    List<Integer> ranks() {
        List<Integer> ranks = new ArrayList<>(failed.size());
        for (int[] f : failed) {
            ranks.add(f[0]);
        }
        return ranks;
    }

    /** @return the blamed rank */
    int causeRank() {
        return cause()[0];
    }

    /** @return the blamed rank's exit code: the job's */
    int causeCode() {
        return cause()[1];
    }

    /**
     * @return the launcher's verdict: {@code jspin run: rank 2 was killed by signal 9 (exit code 137);
     *         rank 0 exited with code 1}, the blamed rank first
     */
    String report() {
        int[] cause = cause();
        StringBuilder m = new StringBuilder("jspin run: rank " + cause[0]
                + (cause[1] > 128 ? " was killed by signal " + (cause[1] - 128) + " (exit code " + cause[1] + ")"
                : " exited with code " + cause[1]));
        for (int[] f : failed) {
            if (f != cause) {
                m.append("; rank ").append(f[0]).append(" exited with code ").append(f[1]);
            }
        }
        return m.toString();
    }

    private int[] cause() {
        return failed.stream().filter(f -> f[1] > 128).findFirst().orElse(failed.getFirst());
    }
}
