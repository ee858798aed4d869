package org.jspin.bench.pingpong;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.HdrHistogram.Histogram;
import org.jspin.datatype.kernel.BulkCopy;

/**
 * The floor under an in-JVM ping-pong of a contiguous message: two threads take turns copying the
 * message from the other's buffer into their own ({@link BulkCopy}, as the receive path copies),
 * handing the turn over through one atomic, as two ranks bouncing it with single copies would and
 * with nothing else. Each copy reads what the other core has just written and writes lines the
 * other core has just read, so on a machine whose two CPUs are far apart (a cache line's round trip
 * between them 400 ns to a microsecond, as this project's 2-vCPU machines sometimes are) the floor
 * falls to a fraction of a copy on one core: no fabric copying as jspin does can bounce the
 * message faster than this.
 *
 * <p>Used by both ranks of {@link PingPong#runLocal}, each from its own thread, once per case: side
 * 0 times its round trips (its copy, the hand-over, the other's copy, the hand-back) into an
 * HdrHistogram and reports half the median, as the ping-pong reports half its round trip. One
 * instance serves one measurement.
 */
public final class CopyFloor {
    /** Rounds before the timed ones: the copy loop compiled, both buffers touched. */
    private static final int WARM_UP_DIVISOR = 5;

    private final AtomicReferenceArray<MemorySegment> buffers = new AtomicReferenceArray<>(2);
    /** Copies made so far: side {@code copies % 2} copies next. */
    private final AtomicInteger copies = new AtomicInteger();

    /**
     * Takes part in the measurement as {@code side}, from its own thread: the other side must call
     * this on the same instance with a buffer of the same size and the same rounds. Each copy
     * overwrites {@code mine} with the other side's buffer, so both end holding what side 1's
     * buffer held at the start.
     *
     * @param side   0 (the timing side) or 1
     * @param mine   this side's buffer, the message's size; it must stay open until this returns
     * @param rounds round trips timed (a fifth more run first, untimed)
     * @return on side 0, the median one-way time (half a round trip) in nanoseconds; on side 1, 0
     * @throws IllegalArgumentException naming the value if side is not 0 or 1, rounds not
     *                                  positive, or the two buffers' sizes differ (on both sides)
     */
    public double oneWayNanos(int side, MemorySegment mine, int rounds) {
        if (side != 0 && side != 1) {
            throw new IllegalArgumentException("side must be 0 or 1, got " + side);
        }
        if (rounds <= 0) {
            throw new IllegalArgumentException("rounds must be positive, got " + rounds);
        }
        buffers.set(side, mine);
        MemorySegment theirs;
        while ((theirs = buffers.get(1 - side)) == null) {
            Thread.onSpinWait();
        }
        if (theirs.byteSize() != mine.byteSize()) {
            throw new IllegalArgumentException("side " + side + "'s buffer has " + mine.byteSize()
                    + " bytes, the other side's " + theirs.byteSize());
        }
        long bytes = mine.byteSize();
        int warmUp = Math.max(1, rounds / WARM_UP_DIVISOR);
        Histogram h = side == 0 ? new Histogram(3) : null;
        for (int r = 0; r < warmUp + rounds; r++) {
            long t0 = System.nanoTime();
            awaitTurn(2 * r + side);
            BulkCopy.copy(theirs, 0, mine, 0, bytes);
            copies.set(2 * r + side + 1);
            if (h != null && r >= warmUp) {
                awaitTurn(2 * r + 2); // the other side's copy of this round is done
                h.recordValue(System.nanoTime() - t0);
            }
        }
        awaitTurn(2 * (warmUp + rounds)); // the other side has stopped reading this side's buffer
        return h == null ? 0 : h.getValueAtPercentile(50) / 2.0;
    }

    private void awaitTurn(int copy) {
        while (copies.get() < copy) {
            Thread.onSpinWait();
        }
    }
}
