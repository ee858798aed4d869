package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.ref.WeakReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

/**
 * A rank's meters outlive its tallies: the counts a closed rank left are what a test or a report
 * reads after the run, whatever the garbage collector did in between.
 */
class MetersTest {

    @Test
    void countersAndGaugesKeepTheirValuesOnceNothingElseHoldsTheirTallies() {
        MeterRegistry reg = new SimpleMeterRegistry();
        WeakReference<Tally> counted = addAndDrop(reg, 7, 3);
        for (int i = 0; i < 50 && counted.get() != null; i++) {
            System.gc();
        }
        // the meters hold the tallies: were they held weakly, the GC would have taken them and
        // Micrometer would read the counter's last read value (never read: 0) and the gauge as NaN
        assertEquals(7, reg.get("test.count").tags("rank", "1").functionCounter().count());
        assertEquals(3, reg.get("test.level").tags("rank", "1").gauge().value());
    }

    /** Registers a counter and a gauge, adds to both, and keeps only a weak reference to the counter's tally. */
    private static WeakReference<Tally> addAndDrop(MeterRegistry reg, long count, long level) {
        Meters meters = new Meters(reg, "test", 1);
        Tally c = meters.counter("test.count", "things");
        Tally g = meters.gauge("test.level");
        c.add(count);
        g.add(level);
        return new WeakReference<>(c);
    }
}
