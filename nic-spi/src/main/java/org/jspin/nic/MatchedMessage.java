package org.jspin.nic;

/**
 * A message a matched probe took off the unexpected list: no other receive can take it, and only
 * {@link Nic#receiveMatched} receives it.
 */
public interface MatchedMessage {
    /** @return the message's match bits (source and tag) */
    long matchBits();

    /** @return the message's length in bytes */
    long messageBytes();
}
