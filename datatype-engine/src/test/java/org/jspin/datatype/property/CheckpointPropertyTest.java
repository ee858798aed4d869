package org.jspin.datatype.property;

import static org.jspin.datatype.testing.Memory.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.testing.Memory;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypedBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checkpoints on random types: a position saved (after walking there, not only after a seek, since
 * the two build the cursor's frames differently) and restored after the cursor moved elsewhere must
 * continue exactly; {@code checkpoint(into)} must overwrite a checkpoint completely.
 */
class CheckpointPropertyTest {

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void restoredCheckpointContinuesExactly(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x61L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        int total = full.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            MemorySegment scratch = mem.packed(arena, (long) total);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            long p = Cuts.point(rnd, c.message());
            cur.pack(scratch, 0, p); // walk to p
            Checkpoint cp = cur.checkpoint();
            assertEquals(p, cp.position(), () -> "checkpoint position, " + c);
            cur.pack(scratch, 0, rnd.nextLong(total - p + 1)); // move on
            cur.seek(Cuts.point(rnd, c.message())); // and elsewhere
            cur.restore(cp);
            assertEquals(p, cur.position(), () -> "position after restore, " + c);
            assertEquals(total - p, cur.remaining(), () -> "remaining after restore, " + c);
            MemorySegment out = mem.packed(arena, total - p);
            assertEquals(total - p, cur.pack(out, 0, total), () -> "bytes after restore, " + c);
            assertArrayEquals(Arrays.copyOfRange(full, (int) p, total), bytes(out),
                    () -> "pack after restoring a checkpoint at " + p + ", " + c);
            // the checkpoint is not consumed: it restores a second time
            cur.restore(cp);
            MemorySegment again = mem.packed(arena, total - p);
            cur.pack(again, 0, total);
            assertArrayEquals(Arrays.copyOfRange(full, (int) p, total), bytes(again),
                    () -> "pack after restoring the same checkpoint again, " + c);
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void checkpointIntoOverwritesAReusedCheckpoint(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x67L + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        int total = full.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            MemorySegment scratch = mem.packed(arena, (long) total);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            // a checkpoint first filled somewhere deep in the message, then reused for another place
            cur.seek(Cuts.point(rnd, c.message()));
            Checkpoint cp = cur.checkpoint();
            long[] q = Cuts.three(rnd, c.message());
            cur.seek(q[0]);
            cur.pack(scratch, 0, q[1] - q[0]); // walk to q[1]
            cur.checkpoint(cp);
            assertEquals(q[1], cp.position(), () -> "reused checkpoint position, " + c);
            cur.pack(scratch, 0, q[2] - q[1]);
            cur.seek(0);
            cur.restore(cp);
            MemorySegment out = mem.packed(arena, total - q[1]);
            assertEquals(total - q[1], cur.pack(out, 0, total), () -> "bytes after restore, " + c);
            assertArrayEquals(Arrays.copyOfRange(full, (int) q[1], total), bytes(out),
                    () -> "pack after restoring a reused checkpoint at " + q[1] + ", " + c);
        }
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("org.jspin.datatype.property.Seeds#seedsAndMemory")
    void unpackResumedFromACheckpointRepairsWhatCameAfter(long seed, Memory mem) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type().commit();
        SplittableRandom rnd = new SplittableRandom(seed * 0x6BL + mem.ordinal());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        int total = full.length;
        byte[] garbage = new byte[total];
        rnd.nextBytes(garbage);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, buf.sentinels());
            MemorySegment good = mem.packed(arena, full);
            MemorySegment bad = mem.packed(arena, garbage);
            TypeCursor cur = t.cursor(c.count(), typed, buf.origin());
            long p = Cuts.point(rnd, c.message());
            cur.unpack(good, 0, p);
            Checkpoint cp = cur.checkpoint();
            // a "lost packet": wrong bytes unpacked after p, then redone from the checkpoint
            cur.unpack(bad, p, rnd.nextLong(total - p + 1));
            cur.restore(cp);
            assertEquals(total - p, cur.unpack(good, p, total - p), () -> "bytes after restore, " + c);
            assertArrayEquals(buf.overlay(buf.sentinels(), c.message(), src), bytes(typed),
                    () -> "typed buffer after redoing the unpack from " + p + ", " + c);
        }
    }
}
