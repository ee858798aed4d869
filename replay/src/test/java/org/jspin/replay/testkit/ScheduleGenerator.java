package org.jspin.replay.testkit;

import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;

/**
 * Schedules of the shapes communication takes (rings, trees, pairwise exchanges, halos with
 * nonblocking operations and uneven compute, wildcard fan-in), of any size, for tests, the comparison
 * with LogGOPSim and the replay's speed.
 */
public final class ScheduleGenerator {
    private ScheduleGenerator() {
    }

    /** Each rank sends to its right and, once that send started, receives from its left, {@code rounds} times. */
    public static Schedule ring(int ranks, int rounds, long bytes) {
        ScheduleBuilder b = new ScheduleBuilder("ring", ranks);
        for (int r = 0; r < ranks; r++) {
            b.beginRank(r, 0);
            int prevSend = -1;
            int prevRecv = -1;
            for (int i = 0; i < rounds; i++) {
                int send = b.send((r + 1) % ranks, i, bytes, 0, 0, null, 0);
                if (prevSend >= 0) {
                    b.requires(send, prevRecv, 0);
                    b.requires(send, prevSend, 0);
                }
                int recv = b.recv((r + ranks - 1) % ranks, i, bytes, 0, 0, null, 0);
                b.irequires(recv, send, 0);
                prevSend = send;
                prevRecv = recv;
            }
        }
        return b.build();
    }

    /** A binomial-tree broadcast from rank 0 (LogGOPSim's binary_tree example's shape). */
    public static Schedule tree(int ranks, long bytes) {
        ScheduleBuilder b = new ScheduleBuilder("tree", ranks);
        for (int r = 0; r < ranks; r++) {
            b.beginRank(r, 0);
            int recv = -1;
            int mask = 1;
            while (mask < ranks) {
                if ((r & mask) != 0) {
                    recv = b.recv(r - mask, 0, bytes, 0, 0, null, 0);
                    break;
                }
                mask <<= 1;
            }
            for (mask >>= 1; mask > 0; mask >>= 1) {
                if (r + mask < ranks && (r & (mask * 2 - 1)) == 0) {
                    int send = b.send(r + mask, 0, bytes, 0, 0, null, 0);
                    if (recv >= 0) b.requires(send, recv, 0);
                }
            }
        }
        return b.build();
    }

    /** Recursive-doubling exchange (ranks a power of two): in round k, rank r swaps with r xor 2^k. */
    public static Schedule pairwise(int ranks, long bytes, long computeNs) {
        ScheduleBuilder b = new ScheduleBuilder("pairwise", ranks);
        for (int r = 0; r < ranks; r++) {
            b.beginRank(r, 0);
            int prev = b.calc(computeNs * (1 + r % 3), 0, null, 0);
            for (int k = 1; k < ranks; k <<= 1) {
                int send = b.send(r ^ k, k, bytes, 0, 0, null, 0);
                int recv = b.recv(r ^ k, k, bytes, 0, 0, null, 0);
                b.requires(send, prev, 0);
                b.irequires(recv, send, 0);
                int wait = b.calc(0, 0, null, 0);
                b.requires(wait, send, 0);
                b.requires(wait, recv, 0);
                prev = wait;
            }
        }
        return b.build();
    }

    /**
     * A 2D halo exchange on a {@code px} x {@code py} torus: per iteration, uneven compute, then
     * nonblocking receives and sends to the four neighbours (each started after the previous one
     * started) and a wait for all eight; ranks with a larger compute wait less.
     */
    public static Schedule halo(int px, int py, int iterations, long bytes, long computeNs) {
        int ranks = px * py;
        ScheduleBuilder b = new ScheduleBuilder("halo", ranks);
        int[] ops = new int[8];
        for (int r = 0; r < ranks; r++) {
            b.beginRank(r, 0);
            int x = r % px;
            int y = r / px;
            int[] neighbour = {((x + 1) % px) + y * px, ((x + px - 1) % px) + y * px,
                    x + ((y + 1) % py) * px, x + ((y + py - 1) % py) * px};
            int prev = -1;
            for (int it = 0; it < iterations; it++) {
                int calc = b.calc(computeNs + (computeNs * ((r * 7 + it) % 5)) / 4, 0, null, 0);
                if (prev >= 0) b.requires(calc, prev, 0);
                int last = calc;
                for (int d = 0; d < 4; d++) {
                    // a message to direction d arrives from the opposite direction: tag by direction
                    int recv = b.recv(neighbour[d ^ 1], d, bytes, 0, 0, null, 0);
                    if (last == calc) b.requires(recv, calc, 0); else b.irequires(recv, last, 0);
                    ops[d] = recv;
                    last = recv;
                }
                for (int d = 0; d < 4; d++) {
                    int send = b.send(neighbour[d], d, bytes, 0, 0, null, 0);
                    b.irequires(send, last, 0);
                    ops[4 + d] = send;
                    last = send;
                }
                int wait = b.calc(0, 0, null, 0);
                for (int op : ops) b.requires(wait, op, 0);
                prev = wait;
            }
        }
        return b.build();
    }

    /** Every other rank sends {@code messages} messages to rank 0, which takes them from any source. */
    public static Schedule fanIn(int ranks, int messages, long bytes) {
        ScheduleBuilder b = new ScheduleBuilder("fan-in", ranks);
        b.beginRank(0, 0);
        for (int i = 0; i < (ranks - 1) * messages; i++) b.recv(Schedule.ANY, 0, bytes, 0, 0, null, 0);
        for (int r = 1; r < ranks; r++) {
            b.beginRank(r, 0);
            int prev = b.calc(100L * r, 0, null, 0);
            for (int i = 0; i < messages; i++) {
                int send = b.send(0, 0, bytes, 0, 0, null, 0);
                b.requires(send, prev, 0);
                prev = send;
            }
        }
        return b.build();
    }
}
