package org.jspin.replay.cost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.lower.Node;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Times our datatype engine on this machine packing and unpacking {@code count} elements of a type
 * between a buffer of its span and a scratch buffer: the median of a few runs after a warm-up, so
 * that neither the JIT's first compilations nor one descheduling decides it.
 */
public final class PackTimer {
    private final int warmups;
    private final int runs;

    /**
     * @param warmups runs thrown away first
     * @param runs    runs the median is taken of (at least 1)
     * @throws MpiException ERR_ARG naming a negative warm-up or fewer than one run
     */
    public PackTimer(int warmups, int runs) {
        if (warmups < 0 || runs < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "a pack timer needs warm-ups >= 0 and runs >= 1, got "
                    + warmups + " and " + runs);
        }
        this.warmups = warmups;
        this.runs = runs;
    }

    /** What the CPU took, ns: the median pack and the median unpack. */
    public record Times(long packNs, long unpackNs) {
    }

    /** @return the median times to pack and to unpack {@code count} elements of the committed {@code type} */
    public Times time(Datatype type, long count) {
        long total = type.packSize(count);
        Node message = type.compiled().message(count);
        if (message == null || total == 0) {
            return new Times(0, 0);
        }
        long origin = Math.max(0, -message.minOffset());
        long span = origin + message.maxOffset();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = arena.allocate(Math.max(1, span), 64);
            MemorySegment packed = arena.allocate(total, 64);
            long[] pack = new long[runs];
            long[] unpack = new long[runs];
            for (int i = -warmups; i < runs; i++) {
                long t0 = System.nanoTime();
                type.cursor(count, typed, origin).pack(packed, 0, total);
                long t1 = System.nanoTime();
                type.cursor(count, typed, origin).unpack(packed, 0, total);
                long t2 = System.nanoTime();
                if (i >= 0) {
                    pack[i] = t1 - t0;
                    unpack[i] = t2 - t1;
                }
            }
            return new Times(median(pack), median(unpack));
        }
    }

    /** @return the middle value of {@code a} (the upper of the two middle ones for an even length), sorting it */
    static long median(long[] a) {
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
