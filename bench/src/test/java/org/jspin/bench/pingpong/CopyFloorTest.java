package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The copy floor's two sides: they take turns, really copy, and refuse what cannot be measured. */
class CopyFloorTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 8, 4096, 65536 + 3})
    void bothSidesCopyAndSideZeroTimes(int bytes) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment zero = arena.allocate(bytes);
            MemorySegment one = arena.allocate(bytes);
            zero.fill((byte) 1);
            one.fill((byte) 2);
            one.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 3);
            CopyFloor floor = new CopyFloor();
            CompletableFuture<Double> other = CompletableFuture.supplyAsync(() -> floor.oneWayNanos(1, one, 50), CopyFloorTest::thread);
            double nanos = floor.oneWayNanos(0, zero, 50);
            assertEquals(0, other.get(30, TimeUnit.SECONDS), "side 1 does not time");
            assertTrue(nanos > 0, "side 0 timed its round trips: " + nanos);
            // the first copy gave side 0 side 1's bytes, and every copy after carried them on
            for (MemorySegment s : new MemorySegment[] {zero, one}) {
                assertEquals(bytes == 1 ? 3 : 2, s.get(ValueLayout.JAVA_BYTE, 0));
                assertEquals(3, s.get(ValueLayout.JAVA_BYTE, bytes - 1));
            }
        }
    }

    @Test
    void buffersOfDifferentSizesFailOnBothSides() {
        CopyFloor floor = new CopyFloor();
        MemorySegment small = MemorySegment.ofArray(new byte[8]);
        MemorySegment large = MemorySegment.ofArray(new byte[16]);
        CompletableFuture<Double> other = CompletableFuture.supplyAsync(() -> floor.oneWayNanos(1, large, 10), CopyFloorTest::thread);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> floor.oneWayNanos(0, small, 10));
        assertTrue(e.getMessage().contains("8 bytes") && e.getMessage().contains("16"), e.getMessage());
        Exception theirs = assertThrows(Exception.class, () -> other.get(30, TimeUnit.SECONDS));
        assertTrue(theirs.getCause() instanceof IllegalArgumentException, theirs.toString());
    }

    /** The other side on a thread of its own (the common pool may have none to spare). */
    private static void thread(Runnable r) {
        Thread.ofPlatform().daemon().start(r);
    }

    @Test
    void badSideOrRoundsAreRefusedNamingTheValue() {
        CopyFloor floor = new CopyFloor();
        MemorySegment b = MemorySegment.ofArray(new byte[8]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> floor.oneWayNanos(2, b, 10))
                .getMessage().contains("got 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> floor.oneWayNanos(0, b, 0))
                .getMessage().contains("got 0"));
    }
}
