package org.jspin.datatype.kernel;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The C library's {@code memmove} through the foreign linker: how the compiled kernels pack a piece
 * of more than 1 KiB and less than 4 KiB on AVX2, where it is faster than {@link MemorySegment#copy}.
 *
 * <p>Packing only: on AVX2 it packed 2 KiB blocks faster, while unpacking did no better, and 4 KiB
 * and longer were level (docs/PERFORMANCE.md). Up to 512 B the kernels unroll vector moves
 * ({@link Move#unrolled}), which beat both.
 *
 * <p>The call passes the segments themselves (sliced to the piece), not raw addresses, so it is as
 * safe as {@code MemorySegment.copy}: the slice checks the bounds, the linker keeps each segment's
 * scope alive for the call (an arena closed meanwhile fails with {@link IllegalStateException}, a
 * confined segment from another thread with {@link WrongThreadException}), and a read-only
 * destination is refused. {@code memmove}, not {@code memcpy}: overlapping pieces copy as
 * {@code MemorySegment.copy} copies them (glibc runs the same code for both).
 *
 * <p>Used only where the JVM grants this module native access ({@code
 * --enable-native-access=ALL-UNNAMED}, as {@code ./jspin} runs it), so a library user without that
 * flag gets no warning, and not with {@code -Djspin.kernels.nativeCopy=false} (for comparisons).
 */
final class NativeCopy {
    /** Packed pieces longer than this and shorter than {@link #MAX_BYTES} go through {@code memmove}. */
    static final long MIN_BYTES = 1024;
    /** From here on {@code MemorySegment.copy} was as fast. */
    static final long MAX_BYTES = 4096;
    /** Vector width (AVX2) of the machines the window was measured on; elsewhere nothing changes. */
    static final int MEASURED_WIDTH = 32;

    private static final MethodHandle MEMMOVE = link();

    private NativeCopy() {
    }

    /** @return whether {@code memmove} is linked (native access granted, not switched off) */
    static boolean available() {
        return MEMMOVE != null;
    }

    /**
     * @param bytes       a bulk piece's length
     * @param vectorWidth the compiled kernels' widest vector move in bytes (0 without SIMD)
     * @param pack        whether the piece is packed (gathered) rather than unpacked
     * @return whether a compiled kernel copies that piece with {@link #copy}
     */
    static boolean suits(long bytes, int vectorWidth, boolean pack) {
        return MEMMOVE != null && pack && vectorWidth == MEASURED_WIDTH && bytes > MIN_BYTES && bytes < MAX_BYTES;
    }

    /**
     * Copies {@code bytes} bytes, as {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)}
     * does, with the same exceptions for bounds, closed scopes, wrong threads and a read-only
     * destination.
     */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (dst.isReadOnly()) { // the linker would write it: let MemorySegment.copy refuse it
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
            return;
        }
        MemorySegment to = dst.asSlice(dstOffset, bytes);
        MemorySegment from = src.asSlice(srcOffset, bytes);
        try {
            MEMMOVE.invokeExact(to, from, bytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) { // memmove throws nothing; invokeExact declares Throwable
            throw new IllegalStateException("memmove of " + bytes + " bytes", t);
        }
    }

    private static MethodHandle link() {
        if (!KernelSettings.current().nativeCopy()
                || !NativeCopy.class.getModule().isNativeAccessEnabled()) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("memmove")
                    .map(f -> linker.downcallHandle(f,
                            // void, not the pointer memmove returns: a returned pointer would be a new segment per call
                            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                            Linker.Option.critical(true)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null; // no linker on this platform: MemorySegment.copy everywhere
        }
    }
}
