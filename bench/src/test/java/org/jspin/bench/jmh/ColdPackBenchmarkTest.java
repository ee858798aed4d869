package org.jspin.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

class ColdPackBenchmarkTest {
    /** The calls take the buffer sets in turn: the first pack fills set 0's packed buffer only. */
    @Test
    void callsTakeTheSetsInTurn() {
        ColdPackBenchmark b = new ColdPackBenchmark();
        b.caseName = "vector_d_64B";
        b.sets = 2;
        b.setUp();
        try {
            MemorySegment before = copyOf(b.set(1).packed());
            PayloadBytes counter = new PayloadBytes();
            b.pack(counter);
            MemorySegment packed0 = copyOf(b.set(0).packed());
            assertNotEquals(-1, before.mismatch(packed0), "set 0 was packed");
            assertEquals(-1, before.mismatch(b.set(1).packed()), "set 1 not yet");
            b.pack(counter);
            assertEquals(-1, packed0.mismatch(b.set(1).packed()), "the second call packed set 1, alike");
            assertEquals(2 * b.set(0).benchCase().payloadBytes(), counter.bytes);
        } finally {
            b.tearDown();
        }
    }

    @Test
    void noSetsIsAnError() {
        ColdPackBenchmark b = new ColdPackBenchmark();
        b.caseName = "vector_d_64B";
        b.sets = 0;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::setUp);
        assertEquals("sets must be at least 1, not 0", e.getMessage());
    }

    private static MemorySegment copyOf(MemorySegment s) {
        MemorySegment c = MemorySegment.ofArray(new byte[(int) s.byteSize()]);
        c.copyFrom(s);
        return c;
    }
}
