package org.jspin.nic;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;

/**
 * A posted receive, as a Portals match entry: the match and ignore bits it accepts, and where an
 * accepted message goes ({@code count} elements of a committed {@code type} in {@code buffer}, the
 * type map already checked against the buffer by the cursor's creation). The buffer is held
 * strongly until the entry completes.
 *
 * @param peer       world rank of the one sender this receive accepts, or -1 for any (so that a
 *                   receive from a failed rank fails rather than waits)
 * @param matchBits  bits an incoming message must equal outside {@code ignoreBits}
 * @param ignoreBits wildcard bits
 * @param buffer     the receive buffer
 * @param count      elements of {@code type}
 * @param type       the receive datatype (committed)
 * @param cursor     a fresh cursor over the buffer (the data path unpacks with it)
 * @param completion told once the receive ends
 */
public record MatchEntry(int peer, long matchBits, long ignoreBits, MemorySegment buffer, long count, Datatype type,
                         TypeCursor cursor, Completion completion) {
    /** @return bytes the receive can hold */
    public long capacity() {
        return cursor.total();
    }

    // identity, not value, equality: two equal-looking receives are two entries (cancel removes one)
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
