package org.jspin.bootstrap.pmi;

import java.time.Duration;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * A point in {@link System#nanoTime()} plus the budget it came from (for messages).
 *
 * @param nanos  when the wait ends
 * @param budget how long the wait was allowed
 */
record Deadline(long nanos, Duration budget) {
    /** @throws MpiException ERR_ARG for a null or non-positive timeout */
    static Deadline after(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 timeout must be positive, got " + timeout);
        }
        long budget;
        try {
            budget = timeout.toNanos();
        } catch (ArithmeticException e) {
            budget = Long.MAX_VALUE / 4;
        }
        // a quarter of the range: adding it to nanoTime() cannot overflow
        return new Deadline(System.nanoTime() + Math.min(budget, Long.MAX_VALUE / 4), timeout);
    }
}
