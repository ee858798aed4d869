package org.jspin.bench.pack;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;

/**
 * Native buffers for one {@link PackCase} and the three operations measured on them: pack, unpack
 * and a contiguous copy of the same payload size (the reference that says what "fast" means on
 * this machine at this size).
 *
 * <p>The typed buffer is exactly the footprint of the message's type map (from the lowest to the
 * highest data byte), with the origin placed so that a negative true lb still lands inside it. The
 * packed buffer holds the packed message, and the copy reference moves the packed buffer into a
 * scratch buffer of the same size. All three are allocated in one shared arena (shared because JMH
 * may run setup and measurement on different threads), freed by {@link #close()}.
 *
 * <p>Each buffer starts on a page ({@link #ALIGN}), as the anchors' {@code posix_memalign(4096, n)}
 * buffers do, so that both measure the same layout in every launch. A smaller alignment left the
 * layout to malloc, which varies it: glibc serves the first multi-MiB buffers from fresh mappings
 * and, once they are freed, later ones from its heap at whatever offset. The kernels notice: the
 * rate moved with the typed buffer's offset within a page (docs/PERFORMANCE.md), so a launch
 * measured one rate or the other depending on where malloc put the buffers.
 *
 * <p>Each operation returns a value read from the bytes it wrote, so a caller that consumes the
 * results keeps the JIT from treating the work as dead.
 */
public final class CaseBuffers implements AutoCloseable {
    /** Alignment of each buffer: a page, as in the anchors. */
    static final long ALIGN = 4096;

    private final PackCase kase;
    private final Arena arena;
    private final MemorySegment typed;
    private final long origin;
    private final MemorySegment packed;
    private final MemorySegment scratch;
    private final long probe;

    /** Allocates and fills the buffers of {@code kase} (typed with one pattern, packed with another). */
    public CaseBuffers(PackCase kase) {
        this.kase = kase;
        Datatype t = kase.type();
        long count = kase.count();
        long payload = kase.payloadBytes();
        long lo = 0;
        long hi = 0;
        if (payload > 0) {
            // element i starts at i * extent; the extent may be negative, so take both ends
            long last = (count - 1) * t.extent();
            lo = t.trueLb() + Math.min(0, last);
            hi = t.trueUb() + Math.max(0, last);
        }
        this.origin = -lo;
        this.arena = Arena.ofShared();
        this.typed = arena.allocate(Math.max(1, hi - lo), ALIGN);
        this.packed = arena.allocate(Math.max(1, payload), ALIGN);
        this.scratch = arena.allocate(Math.max(1, payload), ALIGN);
        // the probe reads the last long written, so the whole copy must have happened before it
        this.probe = Math.max(0, payload - Long.BYTES);
        fill(typed, 0x9E3779B97F4A7C15L);
        fill(packed, 0xC2B2AE3D27D4EB4FL);
    }

    /** @return the case these buffers belong to */
    public PackCase benchCase() {
        return kase;
    }

    /** @return the typed buffer (the message's type map around {@link #origin()}) */
    public MemorySegment typed() {
        return typed;
    }

    /** @return the byte of {@link #typed()} where displacement 0 lies */
    public long origin() {
        return origin;
    }

    /** @return the packed buffer, {@code payloadBytes} long (at least 1 byte) */
    public MemorySegment packed() {
        return packed;
    }

    /**
     * Packs the message from the typed into the packed buffer.
     *
     * @return bytes packed plus a word of the packed output
     */
    public long pack() {
        long n = kase.type().cursor(kase.count(), typed, origin).pack(packed, 0, kase.payloadBytes());
        return n + probe(packed);
    }

    /**
     * Unpacks the packed buffer into the typed one.
     *
     * @return bytes unpacked plus a word of the typed buffer
     */
    public long unpack() {
        long n = kase.type().cursor(kase.count(), typed, origin).unpack(packed, 0, kase.payloadBytes());
        return n + typed.get(JAVA_BYTE, 0);
    }

    /**
     * Copies the packed buffer into the scratch buffer with one {@link MemorySegment#copy}: the
     * same number of bytes as a pack, with no layout to follow.
     *
     * @return a word of the copy
     */
    public long copy() {
        long n = kase.payloadBytes();
        MemorySegment.copy(packed, 0, scratch, 0, n);
        return n + probe(scratch);
    }

    private long probe(MemorySegment seg) {
        return kase.payloadBytes() >= Long.BYTES ? seg.get(JAVA_LONG_UNALIGNED, probe) : seg.get(JAVA_BYTE, 0);
    }

    /** Fills {@code seg} with a position-dependent pattern, so a misplaced byte shows in a comparison. */
    static void fill(MemorySegment seg, long seed) {
        long n = seg.byteSize();
        long i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            seg.set(JAVA_LONG_UNALIGNED, i, mix(seed + i));
        }
        for (; i < n; i++) {
            seg.set(JAVA_BYTE, i, (byte) mix(seed + i));
        }
    }

    private static long mix(long z) {
        // SplitMix64 finaliser: cheap and with no short period in the byte pattern
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Frees the buffers. */
    @Override
    public void close() {
        arena.close();
    }
}
