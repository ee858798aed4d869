package org.jspin.nic.engine;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Registers one rank's meters, tagged with its rank and backend, each backed by a {@link Tally}
 * that the progress thread adds to without synchronisation: the one way the engine and every
 * {@link DataPath} publish what they count.
 */
public final class Meters {
    private final MeterRegistry registry;
    private final Tags tags;

    /**
     * @param registry where the meters go
     * @param backend  the backend's name (tag {@code backend})
     * @param rank     the rank's world rank (tag {@code rank})
     */
    public Meters(MeterRegistry registry, String backend, int rank) {
        this.registry = registry;
        this.tags = Tags.of("rank", Integer.toString(rank), "backend", backend);
    }

    /**
     * @return a new tally published as the monotonic counter {@code name} in {@code unit}, which
     *         keeps its final value after the rank has closed
     */
    public Tally counter(String name, String unit) {
        Tally t = new Tally();
        // Micrometer holds a function counter's object weakly and, once it is collected, reports the
        // last value it read: a closed rank's counts, never read while it ran, would read 0 after
        // the next GC. The function holds the tally strongly, so the meter keeps it.
        FunctionCounter.builder(name, t, ignored -> t.get()).baseUnit(unit).tags(tags).register(registry);
        return t;
    }

    /**
     * @return a new tally published as the gauge {@code name} (a level that goes up and down), which
     *         keeps its last level after the rank has closed
     */
    public Tally gauge(String name) {
        Tally t = new Tally();
        Gauge.builder(name, t, Tally::get).strongReference(true).tags(tags).register(registry);
        return t;
    }

    /** @return the tags every meter of this rank carries */
    public Tags tags() {
        return tags;
    }

    /** @return the registry the meters are in */
    public MeterRegistry registry() {
        return registry;
    }
}
