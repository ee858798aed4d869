package org.jspin.bench.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Counts payload bytes moved, which JMH reports as a secondary rate next to the operation rate: the
 * {@code :bytes} line of a throughput result is payload bytes per second (divide by 1e9 for the
 * GB/s of the anchor tables), so cases of different sizes compare directly.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class PayloadBytes {
    /** Payload bytes moved in this iteration (JMH reads the public field). */
    public long bytes;

    /** Starts each iteration from zero, as JMH expects of an operations counter. */
    @Setup(Level.Iteration)
    public void reset() {
        bytes = 0;
    }
}
