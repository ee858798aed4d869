package org.jspin.datatype.testing;

import java.util.SplittableRandom;

/**
 * The byte layout of a typed buffer for one case: big enough for the message's footprint plus a
 * few bytes of margin on each side (so that "nothing outside the type map was touched" also looks
 * at bytes past both ends), with the origin placed so that negative offsets land inside.
 *
 * @param size   bytes in the buffer
 * @param origin buffer index of displacement 0
 */
public record TypedBuffer(int size, long origin) {
    /** Byte written into untouched places; the checks test "still the sentinel" per byte. */
    public static byte sentinel(int i) {
        return (byte) (0x5A ^ (i * 0x3B) ^ (i >>> 8));
    }

    public static TypedBuffer of(TypeCase c, SplittableRandom rnd) {
        long before = rnd.nextInt(8);
        long after = rnd.nextInt(8);
        long size = c.hi() - c.lo() + before + after;
        return new TypedBuffer(Math.toIntExact(size), before - c.lo());
    }

    /** @return random content for the buffer */
    public byte[] random(SplittableRandom rnd) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) rnd.nextInt();
        }
        return b;
    }

    /** @return the sentinel pattern */
    public byte[] sentinels() {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = sentinel(i);
        }
        return b;
    }

    /** @return which buffer bytes the pieces cover */
    public boolean[] covered(Pieces p) {
        boolean[] m = new boolean[size];
        for (int i = 0; i < p.count(); i++) {
            long from = origin + p.offset(i);
            for (long j = 0; j < p.length(i); j++) {
                m[(int) (from + j)] = true;
            }
        }
        return m;
    }

    /** @return the concatenation of the pieces' bytes read from {@code typed}: what packing must produce */
    public byte[] gather(Pieces p, byte[] typed) {
        byte[] out = new byte[Math.toIntExact(p.total())];
        int at = 0;
        for (int i = 0; i < p.count(); i++) {
            int len = (int) p.length(i);
            System.arraycopy(typed, (int) (origin + p.offset(i)), out, at, len);
            at += len;
        }
        return out;
    }

    /**
     * @return {@code base} with the covered bytes replaced by those of {@code source}: what unpacking
     *         data that was packed from {@code source} must leave behind
     */
    public byte[] overlay(byte[] base, Pieces p, byte[] source) {
        byte[] out = base.clone();
        boolean[] m = covered(p);
        for (int i = 0; i < size; i++) {
            if (m[i]) {
                out[i] = source[i];
            }
        }
        return out;
    }
}
