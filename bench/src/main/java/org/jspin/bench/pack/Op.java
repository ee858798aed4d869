package org.jspin.bench.pack;

/**
 * The operations a sweep measures, in the order a round runs them. Each times its own loop, so
 * every call site stays monomorphic and small: one method holding all three loops grows so large
 * once C2 inlines the engine into it that the kernels' Vector API calls may no longer be inlined
 * (and then run boxed, 50 to 100 times slower), which no real caller would see.
 */
enum Op {
    /** A contiguous copy of the payload's size: the reference. */
    COPY {
        @Override
        long time(CaseBuffers b, long reps) {
            long acc = 0;
            long t0 = System.nanoTime();
            for (long i = 0; i < reps; i++) {
                acc += b.copy();
            }
            return done(t0, acc);
        }
    },
    /** Typed to packed. */
    PACK {
        @Override
        long time(CaseBuffers b, long reps) {
            long acc = 0;
            long t0 = System.nanoTime();
            for (long i = 0; i < reps; i++) {
                acc += b.pack();
            }
            return done(t0, acc);
        }
    },
    /** Packed to typed. */
    UNPACK {
        @Override
        long time(CaseBuffers b, long reps) {
            long acc = 0;
            long t0 = System.nanoTime();
            for (long i = 0; i < reps; i++) {
                acc += b.unpack();
            }
            return done(t0, acc);
        }
    };

    /** Sum of the operations' results; published so the JIT cannot drop the measured work. */
    private static volatile long sink;

    /** @return the nanoseconds {@code reps} back-to-back runs of this operation took */
    abstract long time(CaseBuffers b, long reps);

    /** @return the lower-case name, for messages */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    private static long done(long t0, long acc) {
        long t = System.nanoTime() - t0;
        sink += acc;
        return t;
    }
}
