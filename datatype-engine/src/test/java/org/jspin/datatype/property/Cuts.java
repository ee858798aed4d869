package org.jspin.datatype.property;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.jspin.datatype.testing.Pieces;

/**
 * Packed offsets at which a property cuts a message: anywhere, exactly at a region boundary, or one
 * byte either side of one (inside a block: the cursor's partial-block path), and the two ends.
 */
final class Cuts {
    private Cuts() {
    }

    /** @return a cut point in [0, total] */
    static long point(SplittableRandom rnd, Pieces message) {
        long total = message.total();
        if (total == 0) {
            return 0;
        }
        return switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> total;
            case 2, 3 -> rnd.nextLong(total + 1);
            default -> {
                long boundary = boundary(rnd, message);
                long nudge = rnd.nextInt(3) - 1;
                yield Math.clamp(boundary + nudge, 0, total);
            }
        };
    }

    /** @return three sorted cut points a &lt;= b &lt;= c */
    static long[] three(SplittableRandom rnd, Pieces message) {
        long[] p = {point(rnd, message), point(rnd, message), point(rnd, message)};
        Arrays.sort(p);
        return p;
    }

    /** @return the packed offset at which a random region starts */
    private static long boundary(SplittableRandom rnd, Pieces message) {
        int k = rnd.nextInt(message.count());
        long at = 0;
        for (int i = 0; i < k; i++) {
            at += message.length(i);
        }
        return at;
    }
}
