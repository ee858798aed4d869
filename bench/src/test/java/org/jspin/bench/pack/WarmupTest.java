package org.jspin.bench.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongUnaryOperator;

import org.jspin.bench.NameFilter;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's rules, on scripted operations and a scripted clock: each batch advances the clock
 * by exactly the time the script says its calls took, so nothing here depends on the machine.
 */
class WarmupTest {
    private static final long MS = 1_000_000L;
    /** The default options' times: at least 50 ms of warm-up, samples of 15 ms, no warnings. */
    private static final PackSweep.Options OPTIONS = new PackSweep.Options(7, 50 * MS, 15 * MS, 0,
            NameFilter.of(null), false);

    /** An operation whose n-th call (from 0) takes {@code perCall.applyAsLong(n)} ns, with its own clock. */
    private static final class Script {
        final LongUnaryOperator perCall;
        long now;
        long calls;

        Script(LongUnaryOperator perCall) {
            this.perCall = perCall;
        }

        long batch(long reps) {
            long took = 0;
            for (long i = 0; i < reps; i++) {
                took += perCall.applyAsLong(calls++);
            }
            now += took;
            return took;
        }

        long calibrate(boolean jitBusy) {
            return Warmup.calibrate(this::batch, () -> now, () -> jitBusy, OPTIONS, "scripted");
        }
    }

    @Test
    void slowFirstCallsThatGetSlowerDoNotEndTheWarmUp() {
        // the launches that measured 0.3 of the copy: C1's code for the first calls, 16-30 ms each
        // and slowing down, then C2's at 0.2 ms a call
        Script s = new Script(n -> n < 5 ? (16 + 3 * n) * MS : 200_000L);
        long reps = s.calibrate(false);
        assertEquals(75, reps, "sized from the fast calls: 15 ms / 0.2 ms");
        assertTrue(s.calls >= Warmup.MIN_CALLS, s.calls + " calls");
    }

    @Test
    void aFastSteadyOperationEndsAfterTheMinimumTime() {
        Script s = new Script(n -> 200_000L);
        assertEquals(75, s.calibrate(false));
        assertTrue(s.now >= OPTIONS.warmupNanos(), "not before the minimum warm-up time");
        assertTrue(s.now < 2 * OPTIONS.warmupNanos(), "and not much after it: " + s.now / MS + " ms");
    }

    @Test
    void aSlowSteadyOperationMakesTheMinimumCallsWithinTheCap() {
        Script s = new Script(n -> 5 * MS);
        assertEquals(3, s.calibrate(false));
        assertTrue(s.calls >= Warmup.MIN_CALLS, s.calls + " calls");
        assertTrue(s.now < Warmup.MAX_FACTOR * OPTIONS.warmupNanos(), "settled before the cap");
    }

    @Test
    void anOperationThatNeverSettlesIsMeasuredAtTheCap() {
        Script s = new Script(n -> 40 * MS); // 25 calls fit in the cap: never the minimum
        assertEquals(1, s.calibrate(false));
        long cap = Warmup.MAX_FACTOR * OPTIONS.warmupNanos();
        assertTrue(s.now >= cap && s.now < cap + 40 * MS, s.now / MS + " ms");
    }

    @Test
    void aBusyJitHoldsTheWarmUpUntilTheCap() {
        Script s = new Script(n -> 200_000L);
        s.calibrate(true);
        assertTrue(s.now >= Warmup.MAX_FACTOR * OPTIONS.warmupNanos(), s.now / MS + " ms");
    }
}
