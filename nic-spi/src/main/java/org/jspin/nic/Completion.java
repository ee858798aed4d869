package org.jspin.nic;

/**
 * Told when an operation ends. Runs on the NIC's progress thread: it must be quick and must never
 * block (record the event and wake the waiter).
 */
@FunctionalInterface
public interface Completion {
    /** The operation ended with {@code event}. */
    void completed(Event event);
}
