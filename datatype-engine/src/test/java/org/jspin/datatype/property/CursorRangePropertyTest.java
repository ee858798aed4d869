package org.jspin.datatype.property;

import static org.jspin.datatype.testing.Memory.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.testing.Memory;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypedBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Partial transfers: a message packed or unpacked in pieces, from positions reached by walking or
 * by {@code seek}, must give exactly the corresponding slice of the whole (cut points include
 * mid-block offsets). The expected bytes come from the oracle.
 */
class CursorRangePropertyTest {
    /** Random ranges tried per seed. */
    private static final int TRIES = 6;

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void packingTwoAdjacentRangesEqualsPackingTheirUnion(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x51L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            for (int k = 0; k < TRIES; k++) {
                long[] p = Cuts.three(rnd, c.message());
                long a = p[0];
                long b = p[1];
                long e = p[2];
                MemorySegment out = mem.packed(arena, e - a);
                TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
                cur.seek(a);
                assertEquals(b - a, cur.pack(out, 0, b - a), () -> "first range, " + c);
                assertEquals(b, cur.position(), () -> "position after the first range, " + c);
                assertEquals(e - b, cur.pack(out, b - a, e - b), () -> "second range, " + c);
                assertArrayEquals(Arrays.copyOfRange(full, (int) a, (int) e), bytes(out),
                        () -> "pack [" + a + "," + b + ") then [" + b + "," + e + "), " + c);
            }
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void packingInRandomChunksEqualsPackingAtOnce(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x53L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        long total = full.length;
        // chunks around the mean region length, so that most of them start or end inside a block
        long mean = Math.max(1, total / Math.max(1, c.message().count()));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            MemorySegment out = mem.packed(arena, total);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            long at = 0;
            while (at < total) {
                long want = 1 + rnd.nextLong(2 * mean + 1);
                long got = cur.pack(out, at, Math.min(want, total - at));
                assertEquals(Math.min(want, total - at), got, () -> "chunk size, " + c);
                at += got;
            }
            assertEquals(0, cur.pack(out, total, 3), () -> "packing at the end moves nothing, " + c);
            assertArrayEquals(full, bytes(out), () -> "chunked pack, " + c);
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void seekThenPackIsASliceOfTheWholePack(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x57L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        long total = full.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            // one cursor, seeking backwards and forwards between ranges
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            for (int k = 0; k < TRIES; k++) {
                long x = Cuts.point(rnd, c.message());
                long n = rnd.nextInt(4) == 0 ? total : Cuts.point(rnd, c.message()) / 2 + rnd.nextInt(3);
                long moved = Math.min(n, total - x);
                MemorySegment out = mem.packed(arena, moved);
                cur.seek(x);
                assertEquals(x, cur.position(), () -> "position after seek, " + c);
                assertEquals(moved, cur.pack(out, 0, n), () -> "bytes packed from " + x + ", " + c);
                assertArrayEquals(Arrays.copyOfRange(full, (int) x, (int) (x + moved)), bytes(out),
                        () -> "seek(" + x + ") then pack(" + n + "), " + c);
            }
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void seekThenUnpackWritesOnlyTheSlice(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x59L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        long total = full.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = mem.packed(arena, full);
            for (int k = 0; k < TRIES / 2; k++) {
                long x = Cuts.point(rnd, c.message());
                long n = Cuts.point(rnd, c.message()) / 2 + rnd.nextInt(3);
                long moved = Math.min(n, total - x);
                MemorySegment typed = mem.typed(arena, buf.sentinels());
                TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
                cur.seek(x);
                assertEquals(moved, cur.unpack(packed, x, n), () -> "bytes unpacked from " + x + ", " + c);
                byte[] expect = buf.overlay(buf.sentinels(), c.message().slice(x, x + moved), src);
                assertArrayEquals(expect, bytes(typed), () -> "seek(" + x + ") then unpack(" + n
                        + ") must write exactly the slice's bytes, " + c);
            }
            // two adjacent ranges unpacked by one cursor write what their union writes
            long[] p = Cuts.three(rnd, c.message());
            MemorySegment typed = mem.typed(arena, buf.sentinels());
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            cur.seek(p[0]);
            assertEquals(p[1] - p[0], cur.unpack(packed, p[0], p[1] - p[0]), () -> "first range, " + c);
            assertEquals(p[2] - p[1], cur.unpack(packed, p[1], p[2] - p[1]), () -> "second range, " + c);
            assertArrayEquals(buf.overlay(buf.sentinels(), c.message().slice(p[0], p[2]), src), bytes(typed),
                    () -> "unpack " + Arrays.toString(p) + " in two ranges, " + c);
        }
    }
}
