package org.jspin.nic.host;

/**
 * Chooses, one piece of work at a time, the faster of two ways of doing it, by the rates measured
 * on the pieces done so far: each way's nanoseconds per byte, smoothed ({@value #WEIGHT} of each
 * new piece), both tried first, then the faster one, with every {@value #EXPLORE_EVERY}th piece
 * done the other way so that a change in which is faster is noticed.
 *
 * <p>For work whose faster way depends on the state of the machine rather than on the work: this
 * project's 2-vCPU machines move between a state where their two CPUs are near and one where they
 * are far apart, for seconds to minutes at a time, and packing a chunk aside then copying it into
 * its packet ({@link HostDataPath}) is the faster way when they are far and the slower when they
 * are near (docs/PERFORMANCE.md). Not thread-safe: one per data path, used by whichever
 * thread drives the engine.
 */
final class FasterOfTwo {
    /** Every this many choices, the way not in favour is tried. */
    static final int EXPLORE_EVERY = 16;
    /** How much of a way's rate one new piece makes. */
    static final double WEIGHT = 0.25;

    /** Nanoseconds per byte, smoothed, per way; 0 until that way has been measured. */
    private final double[] nanosPerByte = new double[2];
    private long choices;

    /** @return the way to do the next piece: 0 or 1 */
    int choose() {
        choices++;
        if (nanosPerByte[0] == 0) {
            return 0;
        }
        if (nanosPerByte[1] == 0) {
            return 1;
        }
        int faster = nanosPerByte[1] < nanosPerByte[0] ? 1 : 0;
        return choices % EXPLORE_EVERY == 0 ? 1 - faster : faster;
    }

    /**
     * A piece of {@code bytes} bytes done {@code way} took {@code nanos}; pieces of no bytes, or
     * timed at zero, say nothing.
     */
    void record(int way, long nanos, long bytes) {
        if (bytes <= 0 || nanos <= 0) {
            return;
        }
        double rate = nanos / (double) bytes;
        double old = nanosPerByte[way];
        nanosPerByte[way] = old == 0 ? rate : old + WEIGHT * (rate - old);
    }

    /** @return the smoothed nanoseconds per byte of {@code way}, 0 if not measured yet */
    double nanosPerByte(int way) {
        return nanosPerByte[way];
    }
}
