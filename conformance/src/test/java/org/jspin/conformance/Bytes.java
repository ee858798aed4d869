package org.jspin.conformance;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;

import org.opentest4j.AssertionFailedError;

/** Test data: seeded byte patterns, sentinel-filled buffers, and comparisons that say where they differ. */
final class Bytes {
    /** What untouched bytes of a receive buffer hold. */
    static final byte SENTINEL = (byte) 0xA5;

    private Bytes() {
    }

    /** @return byte {@code i} of the pattern of {@code seed}: no period short enough to hide a shifted copy */
    static byte at(long seed, long i) {
        long z = seed * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        z ^= z >>> 29;
        z *= 0x94D049BB133111EBL;
        return (byte) (z ^ (z >>> 32));
    }

    /** @return a heap buffer of {@code n} bytes holding the pattern of {@code seed} */
    static MemorySegment pattern(long n, long seed) {
        MemorySegment s = MemorySegment.ofArray(new byte[Math.toIntExact(n)]);
        fill(s, seed);
        return s;
    }

    /** Writes the pattern of {@code seed} over all of {@code s}. */
    static void fill(MemorySegment s, long seed) {
        long n = s.byteSize();
        for (long i = 0; i < n; i++) {
            s.set(JAVA_BYTE, i, at(seed, i));
        }
    }

    /** @return a heap buffer of {@code n} sentinel bytes */
    static MemorySegment sentinels(long n) {
        MemorySegment s = MemorySegment.ofArray(new byte[Math.toIntExact(n)]);
        s.fill(SENTINEL);
        return s;
    }

    /** Fills {@code s} with longs whose value is their index mixed with {@code seed} (fast, for big buffers). */
    static void fillLongs(MemorySegment s, long seed) {
        long n = s.byteSize() / 8;
        for (long i = 0; i < n; i++) {
            s.set(JAVA_LONG_UNALIGNED, 8 * i, word(seed, i));
        }
    }

    /** Fills all of {@code s} quickly: {@link #fillLongs}, then pattern bytes for a tail shorter than a long. */
    static void fillFast(MemorySegment s, long seed) {
        fillLongs(s, seed);
        for (long i = s.byteSize() & ~7L; i < s.byteSize(); i++) {
            s.set(JAVA_BYTE, i, at(seed, i));
        }
    }

    /** @return long {@code i} of {@link #fillLongs} */
    static long word(long seed, long i) {
        return i * 0x9E3779B97F4A7C15L ^ seed;
    }

    /** Fails, naming the first differing byte and its neighbourhood, unless the two are equal. */
    static void assertSameBytes(MemorySegment expected, MemorySegment actual, String what) {
        if (expected.byteSize() != actual.byteSize()) {
            throw new AssertionFailedError(what + ": expected " + expected.byteSize() + " bytes, got "
                    + actual.byteSize());
        }
        long at = expected.mismatch(actual);
        if (at >= 0) {
            throw new AssertionFailedError(what + ": first difference at byte " + at + " of " + expected.byteSize()
                    + ": expected " + around(expected, at) + ", got " + around(actual, at));
        }
    }

    /** @return the bytes around {@code at} in hex, for failure messages */
    static String around(MemorySegment s, long at) {
        long from = Math.max(0, at - 4);
        long to = Math.min(s.byteSize(), at + 12);
        byte[] b = s.asSlice(from, to - from).toArray(JAVA_BYTE);
        return "[" + from + ".." + to + ") " + HexFormat.of().formatHex(b);
    }
}
