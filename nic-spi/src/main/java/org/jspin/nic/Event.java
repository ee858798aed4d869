package org.jspin.nic;

import org.jspin.error.MpiException;

/**
 * A completion event, as a Portals NIC posts to an event queue: which operation ended, the
 * envelope of the message it concerned, and how.
 *
 * @param kind          what completed
 * @param matchBits     the message's match bits (source and tag in its communicator)
 * @param messageBytes  bytes the sender sent (the full message, even when the receive truncated it)
 * @param deliveredBytes bytes written into the receive buffer (receives), or sent (sends)
 * @param error         why the operation failed, or null
 * @param cancelled     whether a receive was cancelled before it matched
 */
public record Event(Kind kind, long matchBits, long messageBytes, long deliveredBytes, MpiException error,
                    boolean cancelled) {
    /** What completed. */
    public enum Kind {
        /** A put: its buffer may be reused. */
        SEND,
        /** A match entry: its buffer holds the message. */
        RECEIVE,
        /** A probe found a message (the message stays, unless it was a matched probe). */
        PROBE
    }
}
