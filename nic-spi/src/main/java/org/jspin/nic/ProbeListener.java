package org.jspin.nic;

/** Told the outcome of a probe, on the progress thread (quick, never blocking). */
@FunctionalInterface
public interface ProbeListener {
    /**
     * @param found   the message's envelope and length, or null if a non-blocking probe found none
     * @param matched the message, taken, for a matched probe that found one; otherwise null
     */
    void probed(Event found, MatchedMessage matched);
}
