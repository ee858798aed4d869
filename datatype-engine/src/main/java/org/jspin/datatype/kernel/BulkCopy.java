package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The copy of a message's contiguous bytes from one place to another, as a receive path makes it
 * (a payload into the receive buffer): the C library's {@code memmove} in pieces of at most
 * {@value #PIECE_BYTES} bytes from {@value #MIN_BYTES} bytes on, which with the two CPUs far apart
 * measured more than twice as fast as {@link MemorySegment#copy} (docs/PERFORMANCE.md, "BulkCopy").
 *
 * <p>Only native, non-overlapping segments go through {@code memmove} ({@link NativeCopy}: bounds,
 * scopes and read-only destinations checked as {@code MemorySegment.copy} checks them); heap
 * segments, overlapping ranges, a JVM without native access for this module, or {@code
 * -Djspin.kernels.nativeCopy=false} copy with {@code MemorySegment.copy}.
 */
public final class BulkCopy {
    /** Copies shorter than this go through {@code MemorySegment.copy}. */
    public static final long MIN_BYTES = 4096;
    /** The longest piece handed to {@code memmove}. */
    static final long PIECE_BYTES = 256 << 10;

    private BulkCopy() {
    }

    /**
     * Copies {@code bytes} bytes, as {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)}
     * does, with the same exceptions for bounds, closed scopes, wrong threads and a read-only
     * destination.
     */
    public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (!viaMemmove(src, srcOffset, dst, dstOffset, bytes)) {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
            return;
        }
        for (long done = 0; done < bytes; done += PIECE_BYTES) {
            NativeCopy.copy(src, srcOffset + done, dst, dstOffset + done, Math.min(PIECE_BYTES, bytes - done));
        }
    }

    /** @return whether {@link #copy} hands these bytes to {@code memmove} */
    static boolean viaMemmove(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (bytes < MIN_BYTES || !NativeCopy.available() || !src.isNative() || !dst.isNative() || dst.isReadOnly()) {
            return false;
        }
        // checked before the first piece, so that nothing is half-written: MemorySegment.copy refuses
        // bad offsets and lengths before it writes anything
        if (srcOffset < 0 || dstOffset < 0 || srcOffset > src.byteSize() - bytes
                || dstOffset > dst.byteSize() - bytes) {
            return false;
        }
        // in pieces, a forward overlap would read bytes already overwritten: left to MemorySegment.copy
        long from = src.address() + srcOffset;
        long to = dst.address() + dstOffset;
        return from + bytes <= to || to + bytes <= from;
    }
}
