package org.jspin.nic.engine;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;

/** Layout facts about a message that the data paths decide on once per message. */
public final class Layouts {
    private Layouts() {
    }

    /**
     * @param origin the buffer byte that is the type's displacement 0
     * @return the byte offset, from the buffer's first byte, of the one contiguous run holding all
     *         {@code count} elements of {@code type} in type-map order, or -1 if the message is not
     *         one contiguous run
     */
    public static long denseOffset(Datatype type, long count, long origin) {
        long total = type.packSize(count);
        if (total == 0) {
            return origin;
        }
        if (type.isCommitted()) {
            long run = type.compiled().denseRun(count); // known once per type and count: nothing per message
            return run < 0 ? -1 : origin + run;
        }
        RegionIterator regions = type.regions(count);
        if (!regions.advance()) {
            return -1;
        }
        return regions.length() == total ? origin + regions.offset() : -1;
    }
}
