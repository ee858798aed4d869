package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The AVX2 kernel for every other 4- or 8-byte element packs exactly the blocks, at any count and
 * offset, and writes nothing of the packed buffer outside the call's bytes: its stores run 16 bytes
 * ahead of the packed data, so the counts around the last window are the ones that matter.
 */
class EvenLaneGatherKernelTest {

    @Test
    void suitsOnlyEveryOtherFourOrEightBytesOnAvx2() {
        boolean avx2 = VectorSpeciesHolder.PREFERRED == 32;
        assertTrue(EvenLaneGatherKernel.suits(4, 8) == avx2);
        assertTrue(EvenLaneGatherKernel.suits(8, 16) == avx2);
        assertFalse(EvenLaneGatherKernel.suits(4, 12));
        assertFalse(EvenLaneGatherKernel.suits(8, 24));
        assertFalse(EvenLaneGatherKernel.suits(16, 32));
        assertFalse(EvenLaneGatherKernel.suits(2, 4));
        assertTrue(EvenLaneGatherKernel.packs(4, 8) && EvenLaneGatherKernel.packs(8, 16), "on any machine");
        assertFalse(EvenLaneGatherKernel.packs(4, 12) || EvenLaneGatherKernel.packs(16, 32));
    }

    @Test
    void theEngineChoosesItOverTheCompiledBlockKernel() {
        Assumptions.assumeTrue(Kernels.vectorized() && EvenLaneGatherKernel.suits(4, 8));
        for (long len : new long[] {4, 8}) {
            CopyKernel k = Kernels.forNativeSegments(Kernels.blocks(len, 2 * len));
            assertTrue(k instanceof EvenLaneGatherKernel, len + " B: " + k);
            assertTrue(Kernels.blockKernel(k).getClass().isHidden(), "the tail is the compiled kernel: " + k);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void packsTheBlocksAndNothingElse(long seed) {
        Assumptions.assumeTrue(Kernels.vectorized(), "the kernel needs the Vector API");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int trial = 0; trial < 60; trial++) {
            long len = rnd.nextBoolean() ? 4 : 8;
            long stride = 2 * len;
            // counts around every window boundary, and some long enough for many windows
            int n = trial < 40 ? rnd.nextInt(0, 24) : rnd.nextInt(24, 5000);
            long at = rnd.nextInt(0, 16);
            long off = rnd.nextInt(0, 16);
            String what = "seed " + seed + ", trial " + trial + ": " + n + " blocks of " + len + " B at " + at
                    + ", packed at " + off;
            try (Arena arena = Arena.ofConfined()) {
                // the typed buffer ends exactly at the last block, so a load past the footprint would fail
                long typedBytes = n == 0 ? at : at + (n - 1) * stride + len;
                MemorySegment typed = arena.allocate(Math.max(1, typedBytes));
                fill(typed, rnd);
                MemorySegment packed = arena.allocate(off + n * len + 16);
                fill(packed, rnd);
                byte[] before = packed.toArray(ValueLayout.JAVA_BYTE);
                byte[] typedBefore = typed.toArray(ValueLayout.JAVA_BYTE);

                new EvenLaneGatherKernel(len, new DynamicKernels.Blocks(len, stride, len))
                        .gather(typed, at, packed, off, n);

                byte[] expected = before.clone();
                for (int i = 0; i < n; i++) {
                    MemorySegment.copy(typed, ValueLayout.JAVA_BYTE, at + i * stride, expected,
                            (int) (off + i * len), (int) len);
                }
                assertArrayEquals(expected, packed.toArray(ValueLayout.JAVA_BYTE), what);
                assertArrayEquals(typedBefore, typed.toArray(ValueLayout.JAVA_BYTE), what + ": typed unchanged");
            }
        }
    }

    @Test
    void unpackingIsTheBlockKernels() {
        Assumptions.assumeTrue(Kernels.vectorized(), "the kernel needs the Vector API");
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 100;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = arena.allocate(n * 8);
            fill(packed, rnd);
            MemorySegment typed = arena.allocate(n * 16);
            fill(typed, rnd);
            byte[] expected = typed.toArray(ValueLayout.JAVA_BYTE);
            for (int i = 0; i < n; i++) {
                MemorySegment.copy(packed, ValueLayout.JAVA_BYTE, i * 8L, expected, i * 16, 8);
            }
            new EvenLaneGatherKernel(8, new DynamicKernels.Blocks(8, 16, 8)).scatter(packed, 0, typed, 0, n);
            assertArrayEquals(expected, typed.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    private static void fill(MemorySegment s, SplittableRandom rnd) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
        }
    }
}
