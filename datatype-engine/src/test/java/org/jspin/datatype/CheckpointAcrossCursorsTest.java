package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.Stream;

import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.testing.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A checkpoint is a position in a message (count elements of one committed type), not in one
 * cursor's buffer: a handler that resumes a transfer makes its own cursor, over its own buffer, and
 * restores the saved position into it (the RO-CP / RW-CP handlers of DESIGN.md). So restoring into
 * a second cursor over the same type and count must work for every count, not only where the
 * engine happens to reuse one message tree.
 */
class CheckpointAcrossCursorsTest {

    static Stream<Arguments> cases() {
        Datatype vector = Datatype.vector(3, 2, 5, Named.INT);
        Datatype runs = Datatype.hindexed(new long[] {1, 3, 2}, new long[] {0, 9, 40}, Named.SHORT);
        Datatype struct = Datatype.struct(new long[] {1, 2}, new long[] {0, 16},
                new Datatype[] {vector, Named.DOUBLE});
        Datatype block = Datatype.contiguous(6, Named.INT);
        return Stream.of(vector, runs, struct, block)
                .flatMap(t -> Stream.of(1L, 2L, 3L).map(n -> Arguments.of(t.commit(), n)));
    }

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("cases")
    void aSecondCursorOverTheSameMessageResumesFromACheckpoint(Datatype t, long count) {
        int span = Math.toIntExact(t.trueUb() + (count - 1) * t.extent());
        byte[] typed = new byte[span];
        for (int i = 0; i < span; i++) {
            typed[i] = (byte) (31 * i + 7);
        }
        int total = Math.toIntExact(t.packSize(count));
        byte[] full = new byte[total];
        t.pack(count, MemorySegment.ofArray(typed), MemorySegment.ofArray(full));
        long p = total / 2 + 1; // inside a block for all of these types

        TypeCursor first = t.cursor(count, MemorySegment.ofArray(typed));
        first.pack(MemorySegment.ofArray(new byte[total]), 0, p);
        Checkpoint cp = first.checkpoint();

        // another cursor of the same message, over a copy of the buffer
        TypeCursor second = t.cursor(count, MemorySegment.ofArray(typed.clone()));
        second.restore(cp);
        assertEquals(p, second.position());
        byte[] rest = new byte[total - (int) p];
        assertEquals(rest.length, second.pack(MemorySegment.ofArray(rest), 0, total));
        assertArrayEquals(Arrays.copyOfRange(full, (int) p, total), rest);
    }
}
