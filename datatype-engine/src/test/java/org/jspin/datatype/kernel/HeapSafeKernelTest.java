package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Copies that touch a heap segment never reach the SIMD kernels; native ones always do. */
class HeapSafeKernelTest {

    /** A kernel that notes which segments it was asked to copy between and copies nothing. */
    private record Recording(String name, List<String> calls) implements CopyKernel {
        @Override
        public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
            calls.add(name + " gather");
        }

        @Override
        public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
            calls.add(name + " scatter");
        }
    }

    @Test
    void routesByTheKindOfBothSegments() {
        List<String> calls = new ArrayList<>();
        CopyKernel k = new HeapSafeKernel(new Recording("vector", calls), new Recording("scalar", calls));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(64);
            MemorySegment heap = MemorySegment.ofArray(new byte[64]);
            k.gather(nat, 0, nat, 0, 1);
            k.gather(heap, 0, nat, 0, 1);
            k.gather(nat, 0, heap, 0, 1);
            k.scatter(nat, 0, nat, 0, 1);
            k.scatter(heap, 0, nat, 0, 1);
            k.scatter(nat, 0, heap, 0, 1);
        }
        assertEquals(List.of("vector gather", "scalar gather", "scalar gather", "vector scatter", "scalar scatter",
                "scalar scatter"), calls);
    }

    @ParameterizedTest(name = "block {0} B")
    @ValueSource(longs = {16, 24, 64, 100, 256})
    void heapAndNativeCopiesAgree(long len) {
        Assumptions.assumeTrue(Kernels.vectorized(), "only SIMD kernels are wrapped");
        CopyKernel k = Kernels.blocks(len, 2 * len);
        assertInstanceOf(HeapSafeKernel.class, k);
        int n = 37;
        byte[] typed = new byte[(int) (2 * len * n)];
        new Random(len).nextBytes(typed);
        byte[] viaHeap = new byte[(int) (len * n)];
        k.gather(MemorySegment.ofArray(typed), 0, MemorySegment.ofArray(viaHeap), 0, n);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment t = arena.allocate(typed.length);
            MemorySegment.copy(MemorySegment.ofArray(typed), 0, t, 0, typed.length);
            MemorySegment p = arena.allocate(viaHeap.length);
            k.gather(t, 0, p, 0, n);
            assertEquals(-1L, p.mismatch(MemorySegment.ofArray(viaHeap)), "the same bytes either way");
            byte[] back = new byte[typed.length];
            k.scatter(MemorySegment.ofArray(viaHeap), 0, MemorySegment.ofArray(back), 0, n);
            for (int i = 0; i < n; i++) {
                for (int b = 0; b < len; b++) {
                    assertEquals(typed[(int) (2 * len * i + b)], back[(int) (2 * len * i + b)], "unit " + i);
                }
            }
        }
    }
}
