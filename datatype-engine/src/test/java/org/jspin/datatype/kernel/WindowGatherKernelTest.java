package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each shape of the window kernel runs in a class of its own, and every one of them packs right, on
 * any machine with the Vector API (it is chosen only where 512-bit vectors are native).
 */
class WindowGatherKernelTest {

    @BeforeEach
    void needsTheVectorApi() {
        Assumptions.assumeTrue(Kernels.vectorized(), "the window kernel needs the Vector API");
    }

    @Test
    void itIsChosenOnlyWhere512BitVectorsAreNative() {
        assertTrue(WindowGatherKernel.suits(8, 16) == (VectorSpeciesHolder.PREFERRED >= 64));
        assertTrue(WindowGatherKernel.packs(8, 16) && WindowGatherKernel.packs(16, 24) && WindowGatherKernel.packs(4, 8));
        assertFalse(WindowGatherKernel.packs(32, 64) || WindowGatherKernel.packs(8, 12) || WindowGatherKernel.packs(8, 8)
                || WindowGatherKernel.packs(4, 12) || WindowGatherKernel.packs(4, 6));
    }

    @Test
    void aShapeHasOneClassAndEveryShapeItsOwn() {
        CopyKernel a = WindowGatherKernel.of(8, 16, new DynamicKernels.Blocks(8, 16, 8));
        CopyKernel b = WindowGatherKernel.of(8, 16, new DynamicKernels.Blocks(8, 16, 8));
        CopyKernel c = WindowGatherKernel.of(16, 32, new DynamicKernels.Blocks(16, 32, 16));
        assertSame(a.getClass(), b.getClass());
        assertNotSame(a.getClass(), c.getClass());
        assertTrue(a.getClass().isHidden() && c.getClass().isHidden(), a.getClass() + ", " + c.getClass());
        assertNotSame(WindowGatherKernel.class, a.getClass());
    }

    @Test
    void everyShapesClassPacksTheBlocks() {
        long[][] shapes = {{4, 8}, {8, 16}, {16, 24}, {16, 32}};
        SplittableRandom rnd = new SplittableRandom(42);
        for (long[] s : shapes) {
            long len = s[0];
            long stride = s[1];
            assertTrue(WindowGatherKernel.packs(len, stride), len + " B blocks, stride " + stride);
            int n = 37;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment typed = arena.allocate(n * stride + 64);
                for (long i = 0; i < typed.byteSize(); i++) {
                    typed.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
                }
                MemorySegment packed = arena.allocate(n * len);
                WindowGatherKernel.of(len, stride, new DynamicKernels.Blocks(len, stride, len))
                        .gather(typed, 0, packed, 0, n);
                byte[] expected = new byte[(int) (n * len)];
                for (int i = 0; i < n; i++) {
                    MemorySegment.copy(typed, ValueLayout.JAVA_BYTE, i * stride, expected, (int) (i * len), (int) len);
                }
                assertArrayEquals(expected, packed.toArray(ValueLayout.JAVA_BYTE), len + " B blocks, stride " + stride);
            }
        }
    }
}
