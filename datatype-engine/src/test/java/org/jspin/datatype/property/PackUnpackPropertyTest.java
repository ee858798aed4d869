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
 * Whole-message pack and unpack on random types against the oracle's pieces, on heap, native and
 * mixed memory. The packed data of the unpack test comes from the oracle, not from the engine's
 * pack, so that each direction is checked on its own.
 */
class PackUnpackPropertyTest {
    /** Extra packed bytes past the message, which must stay untouched. */
    private static final int TAIL = 5;

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void packReadsTheTypeMapInOrder(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E37L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        int total = Math.toIntExact(c.packedSize());
        byte[] expect = buf.gather(c.message(), src);
        byte[] packedBefore = sentinels(total + TAIL);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            MemorySegment packed = mem.packed(arena, packedBefore);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            assertEquals(total, cur.remaining(), () -> "remaining() of a new cursor, " + c);
            // asking for more than the message holds packs the message and reports its size
            assertEquals(total, cur.pack(packed, 0, total + TAIL), () -> "bytes packed, " + c);
            assertEquals(0, cur.remaining(), () -> "remaining() after packing everything, " + c);
            byte[] got = bytes(packed);
            assertArrayEquals(expect, Arrays.copyOf(got, total), () -> "packed bytes, " + c);
            assertArrayEquals(Arrays.copyOfRange(packedBefore, total, total + TAIL),
                    Arrays.copyOfRange(got, total, total + TAIL), () -> "packed bytes past the message, " + c);
            assertArrayEquals(src, bytes(typed), () -> "pack must not write the typed buffer, " + c);
            if (c.lo() >= 0 && buf.origin() >= 0) {
                // the whole-message helpers put the origin at the first byte: slice the buffer there
                // (possible when no offset is negative)
                MemorySegment again = mem.packed(arena, (long) total);
                assertEquals(total, t.pack(c.count(), typed.asSlice(buf.origin()), again), () -> "pack(), " + c);
                assertArrayEquals(expect, bytes(again), () -> "bytes of pack(), " + c);
            }
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void unpackWritesTheTypeMapAndNothingElse(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x7F4AL + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        int total = Math.toIntExact(c.packedSize());
        // packed from src, so where the type map overlaps itself every write of a byte agrees
        byte[] packedBytes = buf.gather(c.message(), src);
        byte[] expect = buf.overlay(buf.sentinels(), c.message(), src);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, buf.sentinels());
            MemorySegment packed = mem.packed(arena, packedBytes);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            assertEquals(total, cur.unpack(packed, 0, total), () -> "bytes unpacked, " + c);
            assertArrayEquals(expect, bytes(typed),
                    () -> "typed buffer after unpack (type-map bytes = source, others = sentinel), " + c);
            assertArrayEquals(packedBytes, bytes(packed), () -> "unpack must not write the packed buffer, " + c);
            if (c.lo() >= 0 && buf.origin() >= 0) {
                MemorySegment fresh = mem.typed(arena, buf.sentinels());
                assertEquals(total, t.unpack(c.count(), packed, fresh.asSlice(buf.origin())),
                        () -> "unpack(), " + c);
                assertArrayEquals(expect, bytes(fresh), () -> "typed buffer after unpack(), " + c);
            }
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void packThenUnpackRestoresTheTypeMap(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x3C6EL + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = mem.packed(arena, c.packedSize());
            t.cursor(c.count(), mem.typed(arena, src), buf.origin()).pack(packed, 0, c.packedSize());
            MemorySegment typed = mem.typed(arena, buf.sentinels());
            t.cursor(c.count(), typed, buf.origin()).unpack(packed, 0, c.packedSize());
            assertArrayEquals(buf.overlay(buf.sentinels(), c.message(), src), bytes(typed),
                    () -> "pack then unpack: type-map bytes restored, all others still the sentinel, " + c);
        }
    }

    static byte[] sentinels(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = TypedBuffer.sentinel(i);
        }
        return b;
    }
}
