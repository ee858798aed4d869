package org.jspin.datatype.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packs small blocks that lie close together (4, 8 or 16 bytes, so close that the blocks of one
 * 64-byte output lie within 128 bytes: every other element, the real parts of complex numbers) with
 * 512-bit vectors: two 64-byte loads cover the blocks of one 64-byte output, and one two-vector
 * permute of their 4-byte lanes ({@code vpermt2d}) compresses them, so a store moves 64 bytes instead
 * of one block. The last window's blocks, and all unpacking, go to the scalar-move
 * kernel of the same shape: a permuted unpack would need masked stores, which are slow here, and
 * writing the gaps back is not allowed (nothing outside the type map is written).
 *
 * <p>Only loads run past a block, and only into the next window's blocks (so never outside the
 * checked type map). Loaded only when the JVM has {@code jdk.incubator.vector} and 512-bit vectors.
 *
 * <p>Each shape runs in a class of its own ({@link #of}): a hidden copy of this one, so that the
 * JIT's profile of one shape's loop (its window count, its tail kernel's class) never meets
 * another's. With one class for all, the 16 B case of `jspin bench pack`'s sweep, which follows
 * the 8 B one, sometimes deoptimised its way through several compilations (docs/PERFORMANCE.md).
 */
final class WindowGatherKernel implements CopyKernel, GatherOverBlocks {
    private static final VectorSpecies<Integer> I512 = IntVector.SPECIES_512;
    /** Shapes given a class of their own; past this many, the shared class (correct, less steady). */
    private static final int MAX_CLASSES = 256;
    private static final Map<Shape, Constructor<?>> CLASSES = new ConcurrentHashMap<>();

    private final long stride;
    private final int blocksPerWindow;
    private final long windowStride;
    private final VectorShuffle<Integer> shuffle;
    private final CopyKernel blocks;

    /**
     * Whether blocks of {@code len} bytes {@code stride} apart suit this kernel on this machine: a
     * shape it {@linkplain #packs packs}, where 512-bit vectors are native.
     */
    static boolean suits(long len, long stride) {
        return VectorSpeciesHolder.PREFERRED >= 64 && packs(len, stride);
    }

    /**
     * Whether this kernel packs blocks of {@code len} bytes {@code stride} apart correctly, on any
     * machine with the Vector API (without 512-bit vectors it is merely slow).
     */
    static boolean packs(long len, long stride) {
        // 32-byte blocks measured no faster this way than with one 32-byte move each
        // 4-byte blocks: only every other one (16 of them span 128 bytes at a stride of 8)
        return (len == 4 || len == 8 || len == 16) && stride > len && stride % Math.min(len, 8) == 0
                && (64 / len) * stride <= 128;
    }

    /**
     * @param blocks the kernel of the same shape for the tail and for unpacking
     * @return the kernel for blocks of {@code len} bytes {@code stride} apart, of the class of this
     *         shape (a hidden copy of this class)
     */
    static CopyKernel of(long len, long stride, CopyKernel blocks) {
        Shape shape = new Shape(len, stride);
        Constructor<?> c = CLASSES.get(shape);
        if (c == null && CLASSES.size() < MAX_CLASSES) {
            c = CLASSES.computeIfAbsent(shape, s -> copyOfThisClass());
        }
        if (c != null) {
            try {
                return (CopyKernel) c.newInstance(len, stride, blocks);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // fall through: the shared class is just as correct
            }
        }
        return new WindowGatherKernel(len, stride, blocks);
    }

    /** @return the constructor of a new hidden copy of this class, or null if one cannot be made */
    private static Constructor<?> copyOfThisClass() {
        try (InputStream in = WindowGatherKernel.class.getResourceAsStream("WindowGatherKernel.class")) {
            if (in == null) {
                return null;
            }
            Class<?> copy = MethodHandles.lookup().defineHiddenClass(in.readAllBytes(), true).lookupClass();
            return copy.getDeclaredConstructor(long.class, long.class, CopyKernel.class);
        } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** A shape the window kernel serves. */
    private record Shape(long len, long stride) {
    }

    /** @param blocks the kernel of the same shape for the tail and for unpacking */
    WindowGatherKernel(long len, long stride, CopyKernel blocks) {
        this.stride = stride;
        this.blocksPerWindow = (int) (64 / len);
        this.windowStride = blocksPerWindow * stride;
        this.blocks = blocks;
        int words = (int) (len / 4);
        int[] lanes = new int[16];
        for (int q = 0; q < 16; q++) { // output int q is int (q % words) of block (q / words)
            lanes[q] = (int) ((q / words) * (stride / 4) + q % words);
        }
        this.shuffle = VectorShuffle.fromArray(I512, lanes, 0);
    }

    @Override
    public void gather(MemorySegment typed, long at, MemorySegment packed, long off, int n) {
        int windows = n / blocksPerWindow - 1; // the last window is left to the tail: no load past the data
        for (int w = 0; w < windows; w++) {
            long a = at + w * windowStride;
            IntVector lo = IntVector.fromMemorySegment(I512, typed, a, VectorSpeciesHolder.ORDER);
            IntVector hi = IntVector.fromMemorySegment(I512, typed, a + 64, VectorSpeciesHolder.ORDER);
            lo.rearrange(shuffle, hi).intoMemorySegment(packed, off + 64L * w, VectorSpeciesHolder.ORDER);
        }
        int done = Math.max(0, windows) * blocksPerWindow;
        blocks.gather(typed, at + done * stride, packed, off + 64L * Math.max(0, windows), n - done);
    }

    @Override
    public void scatter(MemorySegment packed, long off, MemorySegment typed, long at, int n) {
        blocks.scatter(packed, off, typed, at, n);
    }

    @Override
    public CopyKernel blocks() {
        return blocks;
    }
}
