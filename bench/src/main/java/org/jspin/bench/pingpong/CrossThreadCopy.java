package org.jspin.bench.pingpong;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A machine probe behind the ping-pong bandwidth figures: two threads take turns copying a buffer
 * back and forth (as two ranks bouncing a message do, each reading what the other core just
 * wrote), the waiting one pausing ({@code Thread.onSpinWait}) or yielding; and, for reference, the
 * same copies on one thread. The gap between the two is what the in-JVM fabric cannot beat.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.jspin.bench.pingpong.CrossThreadCopy [bytes] [rounds]}
 */
public final class CrossThreadCopy {
    private CrossThreadCopy() {
    }

    /** Prints microseconds per copy for one thread, two pausing threads and two yielding threads. */
    public static void main(String[] args) throws InterruptedException {
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment x = arena.allocate(bytes, 64);
            MemorySegment y = arena.allocate(bytes, 64);
            x.fill((byte) 1);
            y.fill((byte) 2);
            long t0 = System.nanoTime();
            for (int i = 0; i < 2 * rounds; i++) {
                MemorySegment.copy((i & 1) == 0 ? x : y, 0, (i & 1) == 0 ? y : x, 0, bytes);
            }
            report("one thread", bytes, (System.nanoTime() - t0) / 2.0 / rounds);
            report("two threads, waiter pauses", bytes, alternate(x, y, bytes, rounds, false));
            report("two threads, waiter yields", bytes, alternate(x, y, bytes, rounds, true));
        }
    }

    private static double alternate(MemorySegment x, MemorySegment y, int bytes, int rounds, boolean yield)
            throws InterruptedException {
        AtomicInteger turn = new AtomicInteger();
        Thread other = new Thread(() -> {
            for (int i = 0; i < rounds; i++) {
                await(turn, 1, yield);
                MemorySegment.copy(x, 0, y, 0, bytes);
                turn.set(0);
            }
        });
        other.start();
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            await(turn, 0, yield);
            MemorySegment.copy(y, 0, x, 0, bytes);
            turn.set(1);
        }
        other.join();
        return (System.nanoTime() - t0) / 2.0 / rounds;
    }

    private static void await(AtomicInteger turn, int mine, boolean yield) {
        while (turn.get() != mine) {
            if (yield) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static void report(String what, int bytes, double nanos) {
        System.out.printf("%-28s %9.1f us per copy of %d B (%.2f GB/s)%n", what, nanos / 1e3, bytes, bytes / nanos);
    }
}
