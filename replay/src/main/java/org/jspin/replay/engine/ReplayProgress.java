package org.jspin.replay.engine;

/** Told now and then how far a long replay has come (for a progress line). */
@FunctionalInterface
public interface ReplayProgress {
    /**
     * @param completed operations completed so far
     * @param total     operations of the schedule
     * @param now       the simulated time of the event being processed, ns
     */
    void update(long completed, long total, long now);
}
