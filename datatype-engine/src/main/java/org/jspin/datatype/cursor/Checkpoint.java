package org.jspin.datatype.cursor;

import org.jspin.datatype.lower.Node;

/**
 * A saved cursor position (the simulator's segment snapshot): O(depth) frames. Reusable: a cursor
 * can overwrite it with {@link Walker#checkpoint(Checkpoint)} without allocating, and any cursor over
 * the same committed type and count can restore it.
 */
public final class Checkpoint {
    final Object owner;
    final long count;
    final Node[] nodes;
    final long[] base;
    final long[] idx;
    int top;
    long blockDone;
    long pos;

    Checkpoint(Object owner, long count, int depth) {
        this.owner = owner;
        this.count = count;
        this.nodes = new Node[depth];
        this.base = new long[depth];
        this.idx = new long[depth];
    }

    /** @return the packed offset this checkpoint is at */
    public long position() {
        return pos;
    }

    /** @return bytes of state a copy of this checkpoint moves (for cost models) */
    public long stateBytes() {
        return 24L * (top + 1) + 24;
    }
}
