package org.jspin.datatype.flat;

import java.util.Iterator;
import java.util.NoSuchElementException;

import org.jspin.datatype.cursor.Walker;
import org.jspin.datatype.lower.Node;

/**
 * Streams the flattened type map of a message: contiguous regions in type-map order, two neighbours
 * merged exactly when the second starts where the first ends. O(depth) state, so types with
 * millions of regions need no array of them. Use {@link #advance()} with {@link #offset()} and
 * {@link #length()} to iterate without allocating, or the {@link Iterator} view.
 */
public final class RegionIterator extends Walker implements Iterator<Region> {
    private long offset;
    private long length;

    /**
     * @param owner   the compiled type the message belongs to
     * @param count   elements in the message
     * @param message a message tree ({@code CompiledType.message(count)}), or null if empty
     */
    public RegionIterator(Object owner, long count, Node message) {
        super(owner, count, message);
    }

    /**
     * Moves to the next merged region.
     *
     * @return false at the end of the type map
     */
    public boolean advance() {
        if (atEnd()) {
            return false;
        }
        offset = currentBlockOffset();
        length = currentBlockLength();
        consumeBlock();
        while (!atEnd() && currentBlockOffset() == offset + length) {
            length += currentBlockLength();
            consumeBlock();
        }
        return true;
    }

    /** @return offset of the region found by the last {@link #advance()} */
    public long offset() {
        return offset;
    }

    /** @return length of the region found by the last {@link #advance()} */
    public long length() {
        return length;
    }

    @Override
    public boolean hasNext() {
        return !atEnd();
    }

    @Override
    public Region next() {
        if (!advance()) {
            throw new NoSuchElementException("no more regions");
        }
        return new Region(offset, length);
    }
}
