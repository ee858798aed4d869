package org.jspin.datatype.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspin.datatype.flat.Region;

/**
 * A sequence of (byte offset, length) pieces in type-map order, merged as DATATYPE-JSON.md says:
 * a piece is folded into the previous one exactly when it starts where the previous one ends.
 * Folding piece by piece is the same as merging the whole list at the end, because the rule only
 * ever looks at two neighbours.
 */
public final class Pieces {
    private long[] off = new long[8];
    private long[] len = new long[8];
    private int n;
    private long total;

    /** Appends a piece; zero-length pieces are no data and are dropped. */
    public void add(long offset, long length) {
        if (length == 0) {
            return;
        }
        total += length;
        if (n > 0 && off[n - 1] + len[n - 1] == offset) {
            len[n - 1] += length;
            return;
        }
        if (n == off.length) {
            off = Arrays.copyOf(off, 2 * n);
            len = Arrays.copyOf(len, 2 * n);
        }
        off[n] = offset;
        len[n] = length;
        n++;
    }

    /** Appends every piece of {@code other}, displaced by {@code shift} bytes. */
    public void addAll(Pieces other, long shift) {
        for (int i = 0; i < other.n; i++) {
            add(other.off[i] + shift, other.len[i]);
        }
    }

    /** @return number of (merged) pieces */
    public int count() {
        return n;
    }

    public long offset(int i) {
        return off[i];
    }

    public long length(int i) {
        return len[i];
    }

    /** @return bytes of data: the sum of the lengths */
    public long total() {
        return total;
    }

    public boolean isEmpty() {
        return n == 0;
    }

    /** @return lowest offset holding data (the list must not be empty) */
    public long minOffset() {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            m = Math.min(m, off[i]);
        }
        return m;
    }

    /** @return one past the highest offset holding data (the list must not be empty) */
    public long maxEnd() {
        long m = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, off[i] + len[i]);
        }
        return m;
    }

    /**
     * The pieces that packed bytes [from, to) come from: the packed stream is the concatenation of
     * the pieces, so this cuts the list at two packed offsets (possibly inside pieces).
     */
    public Pieces slice(long from, long to) {
        Pieces out = new Pieces();
        long at = 0;
        for (int i = 0; i < n && at < to; i++) {
            long lo = Math.max(from, at);
            long hi = Math.min(to, at + len[i]);
            if (lo < hi) {
                out.add(off[i] + (lo - at), hi - lo);
            }
            at += len[i];
        }
        return out;
    }

    /** @return the pieces as engine regions, for comparison with {@code Datatype.regions} */
    public List<Region> regions() {
        List<Region> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Region(off[i], len[i]));
        }
        return out;
    }
}
