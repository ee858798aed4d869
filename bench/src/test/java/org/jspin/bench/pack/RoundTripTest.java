package org.jspin.bench.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Guards the benchmark setup rather than the engine: for every case, the buffers that
 * {@link CaseBuffers} allocates hold the whole type map, and what its pack writes and its unpack
 * reads are exactly the bytes the type's regions name, in order. The expectation is built from
 * {@link Datatype#regions} (checked against the golden files in the engine's own tests), one
 * region at a time, independently of the pack path being measured.
 */
class RoundTripTest {

    static Stream<PackCase> cases() {
        List<PackCase> all = new ArrayList<>(PackCases.all());
        // not a benchmark case: proves CaseBuffers places the origin so a negative true lb fits
        all.add(PackCase.of("negative_lb", Datatype.hindexed(new long[] {2, 3}, new long[] {-64, 16}, Datatype.DOUBLE),
                3));
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void packWritesTheRegionsAndUnpackRestoresThem(PackCase c) {
        try (CaseBuffers b = new CaseBuffers(c); Arena arena = Arena.ofConfined()) {
            long payload = c.payloadBytes();
            // the anchors' layout: every buffer on a page, so each launch measures the same one
            assertEquals(0, b.typed().address() % CaseBuffers.ALIGN, "typed buffer starts on a page");
            assertEquals(0, b.packed().address() % CaseBuffers.ALIGN, "packed buffer starts on a page");
            MemorySegment expected = arena.allocate(Math.max(1, payload));
            long n = gather(c, b, b.typed(), expected);
            assertEquals(payload, n, "regions hold the payload");

            b.pack();
            assertEquals(-1, b.packed().asSlice(0, payload).mismatch(expected.asSlice(0, payload)),
                    "packed bytes differ from the regions of the typed buffer");

            // unpack fresh data: the regions must take it, every other typed byte must stay as it was
            MemorySegment before = arena.allocate(b.typed().byteSize()).copyFrom(b.typed());
            CaseBuffers.fill(b.packed(), 0x5DEECE66DL);
            MemorySegment incoming = arena.allocate(Math.max(1, payload)).copyFrom(b.packed());
            scatter(c, b, incoming, before);
            b.unpack();
            assertEquals(-1, b.typed().mismatch(before), "unpack wrote other bytes than the regions");

            b.pack();
            assertEquals(-1, b.packed().mismatch(incoming), "pack after unpack does not give the data back");
        }
    }

    /** Copies each region of the typed buffer, in type-map order, to consecutive bytes of {@code dst}. */
    private static long gather(PackCase c, CaseBuffers b, MemorySegment typed, MemorySegment dst) {
        long at = 0;
        for (RegionIterator it = c.type().regions(c.count()); it.advance(); ) {
            MemorySegment.copy(typed, b.origin() + it.offset(), dst, at, it.length());
            at += it.length();
        }
        return at;
    }

    /** Copies consecutive bytes of {@code src} into the regions of {@code typed}, in type-map order. */
    private static void scatter(PackCase c, CaseBuffers b, MemorySegment src, MemorySegment typed) {
        long at = 0;
        for (RegionIterator it = c.type().regions(c.count()); it.advance(); ) {
            MemorySegment.copy(src, at, typed, b.origin() + it.offset(), it.length());
            at += it.length();
        }
    }
}
