package org.jspin.nic;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;

/**
 * A send, as a Portals put: {@code count} elements of a committed {@code type} in {@code buffer}
 * to world rank {@code target} with {@code matchBits}. The buffer is held strongly, and must not be
 * changed, until the put completes.
 *
 * @param target     world rank of the receiver
 * @param matchBits  the envelope ({@code MatchBits.of})
 * @param buffer     the send buffer
 * @param count      elements of {@code type}
 * @param type       the send datatype (committed)
 * @param cursor     a fresh cursor over the buffer (the data path packs with it)
 * @param completion told once the buffer may be reused
 */
public record Put(int target, long matchBits, MemorySegment buffer, long count, Datatype type, TypeCursor cursor,
                  Completion completion) {
    /** @return message bytes */
    public long length() {
        return cursor.total();
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
