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

    /** @return a new tally published as the monotonic counter {@code name} in {@code unit} */
    public Tally counter(String name, String unit) {
        Tally t = new Tally();
        FunctionCounter.builder(name, t, Tally::get).baseUnit(unit).tags(tags).register(registry);
        return t;
    }

    /** @return a new tally published as the gauge {@code name} (a level that goes up and down) */
    public Tally gauge(String name) {
        Tally t = new Tally();
        Gauge.builder(name, t, Tally::get).tags(tags).register(registry);
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
