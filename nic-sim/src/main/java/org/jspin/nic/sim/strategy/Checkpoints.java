package org.jspin.nic.sim.strategy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.datatype.lower.CompiledType;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;

/**
 * Checkpoints and iovec lists, built once per (committed type, count) when a receive of it is first
 * posted and reused by later ones, as the paper's host does (its Fig. 18 asks after how many reuses
 * the creation pays off). Building them walks the whole message, counted in
 * {@link MessageWork#creationBlocks}; each message counts what it found made or had to make. Only
 * immutable state is kept: the segments the handlers advance are the message's own. At most
 * {@link #CAPACITY} entries, least recently used dropped first.
 */
public final class Checkpoints {
    /** Entries kept. */
    public static final int CAPACITY = 64;

    private record Key(CompiledType type, long count, long deltaR) {
    }

    private final Map<Key, Object> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Object> eldest) {
            return size() > CAPACITY;
        }
    };

    /** @return checkpoints {@code shape} needs at every Δr bytes (at least one for a non-empty message) */
    public static long count(MessageShape shape, long deltaR) {
        long bytes = shape.bytes();
        return bytes == 0 ? 0 : (bytes + deltaR - 1) / deltaR;
    }

    /** @return the read-only checkpoints of {@code shape} at 0, Δr, 2Δr, ... (made or reused, counted in {@code work}) */
    Checkpoint[] checkpoints(MessageShape shape, long deltaR, MessageWork work) {
        Key key = new Key(shape.compiled(), shape.count(), deltaR);
        Checkpoint[] found = (Checkpoint[]) entries.get(key);
        if (found != null) {
            work.checkpointsReused += found.length;
            return found;
        }
        Checkpoint[] made = new Checkpoint[(int) count(shape, deltaR)];
        NicSegment s = new NicSegment(shape);
        HandlerWork walk = new HandlerWork();
        for (int j = 0; j < made.length; j++) {
            s.walkTo(j * deltaR, walk);
            made[j] = s.checkpoint();
        }
        work.creationBlocks += walk.catchUpBlocks;
        work.checkpointsMade += made.length;
        entries.put(key, made);
        return made;
    }

    /** @return the flattened iovec list of {@code shape} (made or reused, counted in {@code work} as one list) */
    Iovec.Entries iovec(MessageShape shape, MessageWork work) {
        Key key = new Key(shape.compiled(), shape.count(), -1);
        Iovec.Entries found = (Iovec.Entries) entries.get(key);
        if (found != null) {
            work.checkpointsReused++;
            return found;
        }
        RegionIterator it = shape.compiled().regions(shape.count());
        long[] offs = new long[16];
        long[] lens = new long[16];
        int n = 0;
        while (it.advance()) {
            if (n == offs.length) {
                offs = java.util.Arrays.copyOf(offs, 2 * n);
                lens = java.util.Arrays.copyOf(lens, 2 * n);
            }
            offs[n] = it.offset();
            lens[n] = it.length();
            n++;
        }
        Iovec.Entries made = new Iovec.Entries(java.util.Arrays.copyOf(offs, n), java.util.Arrays.copyOf(lens, n));
        work.creationBlocks += n;
        work.checkpointsMade++;
        entries.put(key, made);
        return made;
    }
}
