package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link BulkCopy} copies as {@link MemorySegment#copy} does, in however many pieces: the same
 * bytes, overlaps included, and the same refusals with nothing written. The build grants native
 * access, so {@code memmove} is linked here.
 */
class BulkCopyTest {
    private static final long MIB = 1 << 20;

    @Test
    void handsMemmoveNativeDisjointCopiesFromFourKiB() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(4 * MIB);
            MemorySegment b = arena.allocate(4 * MIB);
            assertTrue(BulkCopy.viaMemmove(a, 0, b, 0, 4096));
            assertTrue(BulkCopy.viaMemmove(a, 0, b, 0, 2 * MIB), "a message of 2 MiB goes in pieces");
            assertFalse(BulkCopy.viaMemmove(a, 0, b, 0, 4095), "short copies stay with MemorySegment.copy");
            assertFalse(BulkCopy.viaMemmove(a, 0, a, 4096, 8192), "an overlap stays with MemorySegment.copy");
            assertTrue(BulkCopy.viaMemmove(a, 0, a, 8192, 8192), "disjoint ranges of one segment do not");
            assertFalse(BulkCopy.viaMemmove(MemorySegment.ofArray(new byte[8192]), 0, b, 0, 8192), "heap source");
            assertFalse(BulkCopy.viaMemmove(a, 0, MemorySegment.ofArray(new byte[8192]), 0, 8192), "heap destination");
            assertFalse(BulkCopy.viaMemmove(a, 0, b.asReadOnly(), 0, 8192), "read-only destination");
            assertFalse(BulkCopy.viaMemmove(a, 4 * MIB - 4096, b, 0, 8192), "out of bounds: refused before writing");
            assertFalse(BulkCopy.viaMemmove(a, -1, b, 0, 8192));
        }
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 30);
    }

    /** Random lengths (up to 3 MiB, around one and two pieces) and offsets, a third within one segment. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void copiesTheBytesMemorySegmentCopyCopies(long seed) {
        Random r = new Random(seed);
        int size = (int) (3 * MIB + 8192);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(size);
            MemorySegment b = arena.allocate(size);
            MemorySegment expectA = arena.allocate(size);
            MemorySegment expectB = arena.allocate(size);
            byte[] init = new byte[size];
            for (int round = 0; round < 4; round++) {
                r.nextBytes(init);
                MemorySegment.copy(init, 0, a, ValueLayout.JAVA_BYTE, 0, size);
                MemorySegment.copy(init, 0, expectA, ValueLayout.JAVA_BYTE, 0, size);
                b.fill((byte) 0);
                expectB.fill((byte) 0);
                long len = switch (r.nextInt(4)) {
                    case 0 -> 1 + r.nextInt(8192);
                    case 1 -> BulkCopy.PIECE_BYTES + r.nextInt(3) - 1;
                    case 2 -> 2 * BulkCopy.PIECE_BYTES + r.nextInt(3) - 1;
                    default -> 1 + r.nextInt(3 * (int) MIB);
                };
                long from = r.nextLong(size - len + 1);
                long to = r.nextLong(size - len + 1);
                boolean within = r.nextInt(3) == 0;
                if (within) {
                    BulkCopy.copy(a, from, a, to, len);
                    MemorySegment.copy(expectA, from, expectA, to, len);
                } else {
                    BulkCopy.copy(a, from, b, to, len);
                    MemorySegment.copy(expectA, from, expectB, to, len);
                }
                String what = "seed " + seed + " round " + round + ": " + len + " bytes from " + from + " to " + to
                        + (within ? " within one segment" : "");
                assertEquals(-1, expectA.mismatch(a), what);
                assertEquals(-1, expectB.mismatch(b), what);
            }
        }
    }

    @Test
    void copiesBetweenHeapAndNativeSegments() {
        byte[] src = new byte[300_000];
        new Random(7).nextBytes(src);
        byte[] back = new byte[300_000];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(300_000);
            BulkCopy.copy(MemorySegment.ofArray(src), 0, n, 0, 300_000);
            BulkCopy.copy(n, 100, MemorySegment.ofArray(back), 100, 299_800);
        }
        byte[] want = src.clone();
        java.util.Arrays.fill(want, 0, 100, (byte) 0);
        java.util.Arrays.fill(want, 299_900, 300_000, (byte) 0);
        assertArrayEquals(want, back);
    }

    @Test
    void refusesWhatMemorySegmentCopyRefusesWritingNothing() {
        try (Arena arena = Arena.ofConfined()) {
            long len = 3 * BulkCopy.PIECE_BYTES;
            MemorySegment src = arena.allocate(len);
            MemorySegment dst = arena.allocate(len);
            src.fill((byte) 1);
            dst.fill((byte) 9);
            // each would fail only in its last piece, were the bounds not checked first
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(src, 0, dst, 100, len - 99));
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(src, 100, dst, 0, len - 99));
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(src, -1, dst, 0, 8192));
            assertThrows(IndexOutOfBoundsException.class, () -> BulkCopy.copy(src, 0, dst, 0, -1));
            MemorySegment readOnly = dst.asReadOnly();
            Class<? extends Throwable> expected = NativeCopyTest.thrownBy(() -> MemorySegment.copy(src, 0, readOnly, 0, 8192));
            assertEquals(expected, NativeCopyTest.thrownBy(() -> BulkCopy.copy(src, 0, readOnly, 0, 8192)));
            assertEquals(-1, dst.mismatch(arena.allocate(len).fill((byte) 9)), "a refused copy wrote nothing");
        }
    }

    @Test
    void refusesClosedAndForeignThreadsSegments() {
        MemorySegment closed;
        try (Arena arena = Arena.ofConfined()) {
            closed = arena.allocate(65536);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment live = arena.allocate(2 * 65536);
            assertThrows(IllegalStateException.class, () -> BulkCopy.copy(closed, 0, live, 0, 65536));
            assertThrows(IllegalStateException.class, () -> BulkCopy.copy(live, 0, closed, 0, 65536));
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> BulkCopy.copy(live, 0, live, 65536, 65536));
            ExecutionException e = assertThrows(ExecutionException.class, other::get);
            assertEquals(WrongThreadException.class, e.getCause().getClass());
        }
    }
}
