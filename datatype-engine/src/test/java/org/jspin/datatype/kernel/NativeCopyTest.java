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
 * {@link NativeCopy} copies as {@link MemorySegment#copy} does: the same bytes, overlapping pieces
 * included, and the same refusals. The tests run with native access granted (the build's
 * {@code --enable-native-access=ALL-UNNAMED}), so {@code memmove} is linked there.
 */
class NativeCopyTest {

    @Test
    void isLinkedWhereNativeAccessIsGranted() {
        assertTrue(NativeCopy.class.getModule().isNativeAccessEnabled(), "the build grants native access");
        assertTrue(NativeCopy.available(), "memmove should link on Linux with native access");
    }

    @Test
    void suitsOnlyTheMeasuredWindow() {
        assertTrue(NativeCopy.suits(1025, 32, true));
        assertTrue(NativeCopy.suits(2048, 32, true));
        assertTrue(NativeCopy.suits(4095, 32, true));
        assertFalse(NativeCopy.suits(1024, 32, true), "1 KiB packed as fast with MemorySegment.copy");
        assertFalse(NativeCopy.suits(4096, 32, true), "from 4 KiB MemorySegment.copy was as fast");
        assertFalse(NativeCopy.suits(2048, 32, false), "unpacking was not faster");
        assertFalse(NativeCopy.suits(2048, 64, true), "AVX-512 copies with vector loops, not measured against memmove");
        assertFalse(NativeCopy.suits(2048, 16, true));
        assertFalse(NativeCopy.suits(2048, 0, true));
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    /** Random lengths and offsets, half of them copies within one segment that overlap. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void copiesTheBytesMemorySegmentCopyCopies(long seed) {
        Random r = new Random(seed);
        int size = 10_000;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(size);
            MemorySegment b = arena.allocate(size);
            MemorySegment expectA = arena.allocate(size);
            MemorySegment expectB = arena.allocate(size);
            for (int round = 0; round < 20; round++) {
                byte[] init = new byte[size];
                r.nextBytes(init);
                MemorySegment.copy(init, 0, a, ValueLayout.JAVA_BYTE, 0, size);
                MemorySegment.copy(init, 0, expectA, ValueLayout.JAVA_BYTE, 0, size);
                b.fill((byte) 0);
                expectB.fill((byte) 0);
                long len = 1 + r.nextInt(5000);
                long from = r.nextLong(size - len + 1);
                long to = r.nextLong(size - len + 1);
                boolean within = r.nextBoolean();
                if (within) {
                    NativeCopy.copy(a, from, a, to, len);
                    MemorySegment.copy(expectA, from, expectA, to, len);
                } else {
                    NativeCopy.copy(a, from, b, to, len);
                    MemorySegment.copy(expectA, from, expectB, to, len);
                }
                String what = "seed " + seed + " round " + round + ": " + len + " bytes from " + from + " to " + to
                        + (within ? " within one segment" : "");
                assertArrayEquals(expectA.toArray(ValueLayout.JAVA_BYTE), a.toArray(ValueLayout.JAVA_BYTE), what);
                assertArrayEquals(expectB.toArray(ValueLayout.JAVA_BYTE), b.toArray(ValueLayout.JAVA_BYTE), what);
            }
        }
    }

    @Test
    void copiesBetweenHeapAndNativeSegments() {
        byte[] src = new byte[3000];
        new Random(7).nextBytes(src);
        byte[] back = new byte[3000];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(3000);
            NativeCopy.copy(MemorySegment.ofArray(src), 0, n, 0, 3000);
            NativeCopy.copy(n, 100, MemorySegment.ofArray(back), 100, 2800);
        }
        for (int i = 0; i < 100; i++) {
            assertEquals(0, back[i]);
            assertEquals(0, back[2900 + i]);
        }
        for (int i = 100; i < 2900; i++) {
            assertEquals(src[i], back[i], "byte " + i);
        }
    }

    @Test
    void refusesWhatMemorySegmentCopyRefuses() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(2048);
            MemorySegment dst = arena.allocate(2048);
            dst.fill((byte) 9);
            assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.copy(src, 0, dst, 1024, 1025));
            assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.copy(src, 1500, dst, 0, 1000));
            assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.copy(src, -1, dst, 0, 1000));
            MemorySegment readOnly = dst.asReadOnly();
            Class<? extends Throwable> expected = thrownBy(() -> MemorySegment.copy(src, 0, readOnly, 0, 1000));
            assertEquals(expected, thrownBy(() -> NativeCopy.copy(src, 0, readOnly, 0, 1000)));
            for (byte v : dst.toArray(ValueLayout.JAVA_BYTE)) {
                assertEquals(9, v, "a refused copy wrote nothing");
            }
        }
    }

    @Test
    void refusesClosedAndForeignThreadsSegments() throws InterruptedException {
        MemorySegment closed;
        try (Arena arena = Arena.ofConfined()) {
            closed = arena.allocate(1024);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment live = arena.allocate(1024);
            assertThrows(IllegalStateException.class, () -> NativeCopy.copy(closed, 0, live, 0, 1024));
            assertThrows(IllegalStateException.class, () -> NativeCopy.copy(live, 0, closed, 0, 1024));
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> NativeCopy.copy(live, 0, live, 512, 512));
            ExecutionException e = assertThrows(ExecutionException.class, other::get);
            assertEquals(WrongThreadException.class, e.getCause().getClass());
        }
    }

    /** @return the class of what {@code r} throws (BulkCopyTest compares refusals with it too) */
    static Class<? extends Throwable> thrownBy(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            return e.getClass();
        }
        throw new AssertionError("expected an exception");
    }
}
