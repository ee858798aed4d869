package org.jspin.bench.pack;

import java.util.List;

/**
 * JVM flags for measuring, used by the JMH forks and {@code jspin bench anchors pack}'s fresh JVMs
 * (the {@code jspin} script gives {@code jspin bench} the same heap flags).
 *
 * <p>The heap flags keep page faults out of the figures. A pack or unpack allocates a cursor (a few
 * hundred bytes), and on a paravirtualised VM the first touch of a heap page is dear. Until the young
 * generation has been cycled through once, and again whenever G1 grows the heap, every twenty or so
 * operations fault a fresh page, many times the cost of a small pack (docs/PERFORMANCE.md), and which
 * cases are hit depends on when the heap happens to grow. A fixed heap touched at start-up (huge
 * pages make the touching quick) removes that, leaving the engine's own cost.
 *
 * <p>The Vector API module lets the engine use its SIMD copy kernels, as {@code jspin} runs it;
 * without it the engine falls back to scalar kernels and the figures are not the product's.
 */
public final class BenchJvm {
    /** Initial heap: equal to the maximum, so the heap never grows into untouched memory. */
    public static final String XMS = "-Xms1g";
    /** Maximum heap: the sweep's data lives off-heap; the heap only holds cursors and case metadata. */
    public static final String XMX = "-Xmx1g";
    /** Touches every heap page at start-up rather than during a measurement. */
    public static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";
    /** Backs the heap with transparent huge pages where the kernel allows (madvise), so touching it is quick. */
    public static final String HUGE_PAGES = "-XX:+UseTransparentHugePages";
    /** Resolves the Vector API incubator module, which the engine's SIMD kernels need. */
    public static final String VECTOR_MODULE = "--add-modules=jdk.incubator.vector";
    /**
     * Grants the class path native access, as {@code ./jspin} runs the engine: its kernels then pack
     * pieces of 1-4 KiB with the C library's {@code memmove} on AVX2 ({@code NativeCopy}).
     */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private BenchJvm() {
    }

    /** @return all the flags, in order */
    public static List<String> flags() {
        return List.of(XMS, XMX, PRE_TOUCH, HUGE_PAGES, VECTOR_MODULE, NATIVE_ACCESS);
    }
}
