package org.jspin.datatype.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The copy of a message's contiguous bytes from one place to another, as a receive path makes it
 * (a payload into the receive buffer): the C library's {@code memmove} in pieces of at most
 * {@value #PIECE_BYTES} bytes, where that measured faster than {@link MemorySegment#copy}.
 *
 * <p>Why: on this project's 2-vCPU AMD EPYC machines (Zen 5, AVX-512) the two CPUs are, at times,
 * far apart (a cache line's round trip between them 400-500 ns rather than about 100), and a
 * message copied into a buffer the other CPU has just read, from a buffer it has just written (two
 * threads taking turns copying 64 KiB back and forth, as the in-JVM fabric's ranks do), took
 * 9.4-9.8 us per copy with {@code MemorySegment.copy} (HotSpot's AVX-512 copy stub, about 7 GB/s)
 * and 3.6 us with {@code memmove} (18 GB/s; glibc's, whose tunables here put copies from 2,112 B
 * on {@code rep movsb}); 4 KiB 2.1 against 0.6 us, 256 KiB 38 against 14 us. A single {@code
 * memmove} of 1 MiB or more fell back to 8.7 GB/s, where pieces of 64-512 KiB held 19.5-21 GB/s
 * (so the pieces). On one CPU, in cache, {@code memmove} was slower below 64 KiB (16 KiB at 141
 * against 221 GB/s: 116 against 74 ns) and level or faster from 64 KiB: so from
 * {@value #MIN_BYTES} bytes the few tens of nanoseconds a local copy may lose are worth the
 * microseconds a cross-core one gains. Measured with scratch programs of two threads alternating
 * copies (this machine, far state), 2026-12-05. To reproduce in the repository: {@code ./jspin
 * bench pingpong} against the same with {@code JAVA_TOOL_OPTIONS=-Djspin.kernels.nativeCopy=false}
 * (this class then copies as {@code MemorySegment.copy}), alternating; in 3 such pairs in the far
 * state the 64 KiB ping-pong's floor ({@code floor us}) was 3.86, 3.79, 3.82 us against 9.64,
 * 9.75, 9.84, and the ping-pong itself 6.63, 7.27, 6.85 against 13.27, 12.82, 12.58.
 *
 * <p>Whole copies of 2.5 MB and more through {@code MemorySegment.copy} behaved otherwise again:
 * in the far state it moved 2 MiB at 7.2 GB/s but 2.5 MB at 31 and 4 MiB at 29 (only 8.3 with
 * {@code -XX:UseAVX=2}), as if HotSpot's AVX-512 stub stored around the caches from there; in the
 * near state the same 4 MiB copies ran at 23-25 GB/s where the in-JVM 4 MiB ping-pong, copying in
 * 256 KiB pieces, reached 35-49 one way. The pieces hold up in both states, so they are used at
 * every length from {@value #MIN_BYTES} bytes.
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
