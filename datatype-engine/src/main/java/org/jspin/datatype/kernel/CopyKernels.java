package org.jspin.datatype.kernel;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The copy kernels: gather (pack) and scatter (unpack) loops specialised by block length, chosen at
 * commit and dispatched by an int id through a {@code tableswitch}, so that each loop is a separate,
 * monomorphic, fully inlined method. Small blocks move as unrolled word loads and stores (the JIT
 * hoists the segment checks out of these counted loops); long blocks as one bulk copy each.
 *
 * <p>Callers have checked every address against the buffers beforehand; nothing here allocates.
 */
public final class CopyKernels {
    /** One {@link MemorySegment#copy} per block. */
    public static final int BULK = 0;
    /** 1-byte blocks. */
    public static final int W1 = 1;
    /** 2-byte blocks. */
    public static final int W2 = 2;
    /** 4-byte blocks. */
    public static final int W4 = 3;
    /** 8-byte blocks. */
    public static final int W8 = 4;
    /** 16-byte blocks. */
    public static final int W16 = 5;
    /** 24-byte blocks. */
    public static final int W24 = 6;
    /** 32-byte blocks. */
    public static final int W32 = 7;
    /** 64-byte blocks. */
    public static final int W64 = 8;
    /** Blocks (or runs) whose lengths are multiples of 8, copied as a loop of longs. */
    public static final int LONGS = 9;
    /** Short blocks of any length: longs, then an int, a short and a byte tail. */
    public static final int SMALL = 10;

    private CopyKernels() {
    }

    /**
     * Packs {@code n} blocks of {@code len} bytes, the i-th at {@code src + s + i * stride}, to
     * consecutive bytes of {@code dst} from {@code d}.
     */
    public static void gather(int kernel, MemorySegment src, long s, long stride, MemorySegment dst, long d,
            long len, long n) {
        switch (kernel) {
            case W1 -> gather1(src, s, stride, dst, d, n);
            case W2 -> gather2(src, s, stride, dst, d, n);
            case W4 -> gather4(src, s, stride, dst, d, n);
            case W8 -> gather8(src, s, stride, dst, d, n);
            case W16 -> gather16(src, s, stride, dst, d, n);
            case W24 -> gather24(src, s, stride, dst, d, n);
            case W32 -> gather32(src, s, stride, dst, d, n);
            case W64 -> gather64(src, s, stride, dst, d, n);
            case LONGS -> gatherLongs(src, s, stride, dst, d, len, n);
            case SMALL -> gatherSmall(src, s, stride, dst, d, len, n);
            default -> gatherBulk(src, s, stride, dst, d, len, n);
        }
    }

    /**
     * Unpacks consecutive bytes of {@code src} from {@code s} into {@code n} blocks of {@code len}
     * bytes, the i-th at {@code dst + d + i * stride}.
     */
    public static void scatter(int kernel, MemorySegment src, long s, MemorySegment dst, long d, long stride,
            long len, long n) {
        switch (kernel) {
            case W1 -> scatter1(src, s, dst, d, stride, n);
            case W2 -> scatter2(src, s, dst, d, stride, n);
            case W4 -> scatter4(src, s, dst, d, stride, n);
            case W8 -> scatter8(src, s, dst, d, stride, n);
            case W16 -> scatter16(src, s, dst, d, stride, n);
            case W24 -> scatter24(src, s, dst, d, stride, n);
            case W32 -> scatter32(src, s, dst, d, stride, n);
            case W64 -> scatter64(src, s, dst, d, stride, n);
            case LONGS -> scatterLongs(src, s, dst, d, stride, len, n);
            case SMALL -> scatterSmall(src, s, dst, d, stride, len, n);
            default -> scatterBulk(src, s, dst, d, stride, len, n);
        }
    }

    /** Packs runs {@code e0..e1-1} (run e: {@code lens[e]} bytes at {@code src + s + disps[e]}) to {@code dst + d}. */
    public static void gatherRuns(int kernel, MemorySegment src, long s, long[] disps, long[] lens, int e0, int e1,
            MemorySegment dst, long d) {
        switch (kernel) {
            case LONGS -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    copyLongs(src, s + disps[e], dst, d, len);
                    d += len;
                }
            }
            case SMALL -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    copySmall(src, s + disps[e], dst, d, len);
                    d += len;
                }
            }
            default -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    MemorySegment.copy(src, s + disps[e], dst, d, len);
                    d += len;
                }
            }
        }
    }

    /** Unpacks {@code src + s} into runs {@code e0..e1-1} (run e at {@code dst + d + disps[e]}). */
    public static void scatterRuns(int kernel, MemorySegment src, long s, MemorySegment dst, long d, long[] disps,
            long[] lens, int e0, int e1) {
        switch (kernel) {
            case LONGS -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    copyLongs(src, s, dst, d + disps[e], len);
                    s += len;
                }
            }
            case SMALL -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    copySmall(src, s, dst, d + disps[e], len);
                    s += len;
                }
            }
            default -> {
                for (int e = e0; e < e1; e++) {
                    long len = lens[e];
                    MemorySegment.copy(src, s, dst, d + disps[e], len);
                    s += len;
                }
            }
        }
    }

    /** Copies {@code len} bytes (a multiple of 8) as longs. */
    static void copyLongs(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        for (long j = 0; j < len; j += 8) {
            dst.set(JAVA_LONG_UNALIGNED, d + j, src.get(JAVA_LONG_UNALIGNED, s + j));
        }
    }

    /** Copies {@code len} bytes of any length as longs, then an int, a short and a byte. */
    static void copySmall(MemorySegment src, long s, MemorySegment dst, long d, long len) {
        long j = 0;
        for (; j + 8 <= len; j += 8) {
            dst.set(JAVA_LONG_UNALIGNED, d + j, src.get(JAVA_LONG_UNALIGNED, s + j));
        }
        if (j + 4 <= len) {
            dst.set(JAVA_INT_UNALIGNED, d + j, src.get(JAVA_INT_UNALIGNED, s + j));
            j += 4;
        }
        if (j + 2 <= len) {
            dst.set(JAVA_SHORT_UNALIGNED, d + j, src.get(JAVA_SHORT_UNALIGNED, s + j));
            j += 2;
        }
        if (j < len) {
            dst.set(JAVA_BYTE, d + j, src.get(JAVA_BYTE, s + j));
        }
    }

    // ---- gather loops ---------------------------------------------------------------------------

    private static void gather1(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_BYTE, d + i, src.get(JAVA_BYTE, s + i * stride));
        }
    }

    private static void gather2(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_SHORT_UNALIGNED, d + 2 * i, src.get(JAVA_SHORT_UNALIGNED, s + i * stride));
        }
    }

    private static void gather4(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_INT_UNALIGNED, d + 4 * i, src.get(JAVA_INT_UNALIGNED, s + i * stride));
        }
    }

    private static void gather8(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_LONG_UNALIGNED, d + 8 * i, src.get(JAVA_LONG_UNALIGNED, s + i * stride));
        }
    }

    private static void gather16(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + i * stride;
            long b = d + 16 * i;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
        }
    }

    private static void gather24(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + i * stride;
            long b = d + 24 * i;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
        }
    }

    private static void gather32(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + i * stride;
            long b = d + 32 * i;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
            dst.set(JAVA_LONG_UNALIGNED, b + 24, src.get(JAVA_LONG_UNALIGNED, a + 24));
        }
    }

    private static void gather64(MemorySegment src, long s, long stride, MemorySegment dst, long d, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + i * stride;
            long b = d + 64 * i;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
            dst.set(JAVA_LONG_UNALIGNED, b + 24, src.get(JAVA_LONG_UNALIGNED, a + 24));
            dst.set(JAVA_LONG_UNALIGNED, b + 32, src.get(JAVA_LONG_UNALIGNED, a + 32));
            dst.set(JAVA_LONG_UNALIGNED, b + 40, src.get(JAVA_LONG_UNALIGNED, a + 40));
            dst.set(JAVA_LONG_UNALIGNED, b + 48, src.get(JAVA_LONG_UNALIGNED, a + 48));
            dst.set(JAVA_LONG_UNALIGNED, b + 56, src.get(JAVA_LONG_UNALIGNED, a + 56));
        }
    }

    private static void gatherLongs(MemorySegment src, long s, long stride, MemorySegment dst, long d, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            copyLongs(src, s + i * stride, dst, d + i * len, len);
        }
    }

    private static void gatherSmall(MemorySegment src, long s, long stride, MemorySegment dst, long d, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            copySmall(src, s + i * stride, dst, d + i * len, len);
        }
    }

    private static void gatherBulk(MemorySegment src, long s, long stride, MemorySegment dst, long d, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(src, s + i * stride, dst, d + i * len, len);
        }
    }

    // ---- scatter loops --------------------------------------------------------------------------

    private static void scatter1(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_BYTE, d + i * stride, src.get(JAVA_BYTE, s + i));
        }
    }

    private static void scatter2(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_SHORT_UNALIGNED, d + i * stride, src.get(JAVA_SHORT_UNALIGNED, s + 2 * i));
        }
    }

    private static void scatter4(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_INT_UNALIGNED, d + i * stride, src.get(JAVA_INT_UNALIGNED, s + 4 * i));
        }
    }

    private static void scatter8(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            dst.set(JAVA_LONG_UNALIGNED, d + i * stride, src.get(JAVA_LONG_UNALIGNED, s + 8 * i));
        }
    }

    private static void scatter16(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + 16 * i;
            long b = d + i * stride;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
        }
    }

    private static void scatter24(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + 24 * i;
            long b = d + i * stride;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
        }
    }

    private static void scatter32(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + 32 * i;
            long b = d + i * stride;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
            dst.set(JAVA_LONG_UNALIGNED, b + 24, src.get(JAVA_LONG_UNALIGNED, a + 24));
        }
    }

    private static void scatter64(MemorySegment src, long s, MemorySegment dst, long d, long stride, long n) {
        for (long i = 0; i < n; i++) {
            long a = s + 64 * i;
            long b = d + i * stride;
            dst.set(JAVA_LONG_UNALIGNED, b, src.get(JAVA_LONG_UNALIGNED, a));
            dst.set(JAVA_LONG_UNALIGNED, b + 8, src.get(JAVA_LONG_UNALIGNED, a + 8));
            dst.set(JAVA_LONG_UNALIGNED, b + 16, src.get(JAVA_LONG_UNALIGNED, a + 16));
            dst.set(JAVA_LONG_UNALIGNED, b + 24, src.get(JAVA_LONG_UNALIGNED, a + 24));
            dst.set(JAVA_LONG_UNALIGNED, b + 32, src.get(JAVA_LONG_UNALIGNED, a + 32));
            dst.set(JAVA_LONG_UNALIGNED, b + 40, src.get(JAVA_LONG_UNALIGNED, a + 40));
            dst.set(JAVA_LONG_UNALIGNED, b + 48, src.get(JAVA_LONG_UNALIGNED, a + 48));
            dst.set(JAVA_LONG_UNALIGNED, b + 56, src.get(JAVA_LONG_UNALIGNED, a + 56));
        }
    }

    private static void scatterLongs(MemorySegment src, long s, MemorySegment dst, long d, long stride, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            copyLongs(src, s + i * len, dst, d + i * stride, len);
        }
    }

    private static void scatterSmall(MemorySegment src, long s, MemorySegment dst, long d, long stride, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            copySmall(src, s + i * len, dst, d + i * stride, len);
        }
    }

    private static void scatterBulk(MemorySegment src, long s, MemorySegment dst, long d, long stride, long len,
            long n) {
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(src, s + i * len, dst, d + i * stride, len);
        }
    }
}
