package org.jspin.datatype.property;

import static org.jspin.datatype.testing.Memory.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.testing.Memory;
import org.jspin.datatype.testing.Named;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypedBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Block lengths at and around the copy kernels' size classes (scalar words with an overlapping
 * tail, 16/32/64-byte vector words, unrolled versus looped moves, groups of vector moves loaded
 * before they are stored, loops of such groups, long vector loops, bulk copies and
 * {@code memmove} (1-4 KiB pieces packed on AVX2), patterns
 * of more than 16 runs, transposed and listed strategies), which random types of named elements
 * seldom produce. Each shape is packed
 * whole, unpacked whole, and packed from cut points just inside and outside its blocks.
 */
class BlockSizeClassesTest {

    static Stream<Arguments> shapes() {
        LongStream small = LongStream.rangeClosed(1, 72);
        // 575-1537: around the groups of up to 8 64-byte moves and the loops of such groups (KernelCompiler)
        LongStream edges = LongStream.of(127, 128, 129, 255, 256, 257, 511, 513, 575, 576, 577, 1023, 1024,
                1025, 1055, 1056, 1057, 1087, 1088, 1471, 1535, 1536, 1537, 2047, 2048, 2049, 2111, 2112, 2113,
                4095, 4097, 65_535, 65_536, 65_537, 70_001);
        return LongStream.concat(small, edges).boxed().flatMap(len -> Stream.of(
                // equal blocks with a gap, forwards and backwards
                Arguments.of("blocks of " + len + " bytes, stride +", Datatype.hvector(3, 1, len + 5, byteRun(len))),
                Arguments.of("blocks of " + len + " bytes, stride -", Datatype.hvector(3, 1, -(len + 3), byteRun(len))),
                // a repeated pattern of two runs of different lengths
                Arguments.of("pattern around " + len + " bytes", Datatype.hvector(2, 1, 2 * len + 40,
                        Datatype.hindexed(new long[] {len, len / 2 + 1}, new long[] {0, len + 7}, Named.BYTE)))))
                .flatMap(a -> Stream.of(Memory.values()).map(m -> Arguments.of(a.get()[0], a.get()[1], m)));
    }

    /** Patterns of many runs: beyond what one specialised pattern kernel unrolls. */
    static Stream<Arguments> manyRuns() {
        // runs long enough that the unit's moves exceed what one compiled unit holds (Kernels.plan)
        Stream<Arguments> longRuns = Stream.of(9, 16).flatMap(n -> {
            long[] bls = new long[n];
            long[] disps = new long[n];
            for (int k = 0; k < n; k++) {
                bls[k] = 500 + 13L * (k % 3);
                disps[k] = k * 600L;
            }
            Datatype runs = Datatype.hindexed(bls, disps, Named.BYTE);
            return Stream.of(Memory.values())
                    .map(m -> Arguments.of(n + " runs of about 500 B", Datatype.hvector(2, 1, n * 600L + 11, runs), m));
        });
        return Stream.concat(longRuns, Stream.of(15, 16, 17, 40).flatMap(n -> {
            long[] bls = new long[n];
            long[] disps = new long[n];
            for (int k = 0; k < n; k++) {
                bls[k] = 1 + (k * 7) % 13;
                disps[k] = k * 20L + (k % 3);
            }
            Datatype runs = Datatype.hindexed(bls, disps, Named.BYTE);
            return Stream.of(Memory.values())
                    .map(m -> Arguments.of(n + " runs", Datatype.hvector(3, 1, n * 20L + 11, runs), m));
        }));
    }

    /**
     * Shapes that commit gives a strategy of its own: two-level vectors unpacked in transposed order
     * (long inner stride, short outer one, as FFT2D's receive type), and index lists of equal-length
     * blocks, some of them adjacent (kept unmerged so that one equal-length kernel copies them all).
     */
    static Stream<Arguments> strategies() {
        Stream<Arguments> transposed = Stream.of(16L, 8L, 24L).flatMap(len -> Stream.of(len, len + 8).map(outer ->
                Arguments.of("transposed " + len + " B blocks, outer stride " + outer, Datatype.hvector(8, 1, outer,
                        Datatype.hvector(16, 1, 2048, byteRun(len))))));
        Stream<Arguments> listed = Stream.of(4L, 8L, 12L, 24L, 40L).map(len -> Arguments.of(
                "listed " + len + " B blocks", Datatype.indexedBlock(1, new long[] {5, 6, 0, 9, 3, 4, 20, 7},
                        byteRun(len))));
        // close small blocks packed by 64-byte windows, with counts around the window size (tails)
        Stream<Arguments> windows = Stream.of(new long[] {8, 16}, new long[] {16, 24}, new long[] {16, 32})
                .flatMap(ls -> Stream.of(1, 3, 4, 5, 7, 8, 9, 12, 16, 17, 33).map(n -> Arguments.of(
                        "window " + ls[0] + " B blocks, stride " + ls[1] + ", " + n + " blocks",
                        Datatype.hvector(n, 1, ls[1], byteRun(ls[0])))));
        return Stream.of(transposed, listed, windows).flatMap(x -> x)
                .flatMap(a -> Stream.of(Memory.values()).map(m -> Arguments.of(a.get()[0], a.get()[1], m)));
    }

    /**
     * Vectors and patterns of more units than one kernel call moves ({@code TypeCursor.BATCH_BYTES}
     * packed bytes): the cursor goes on in the next call from the unit where the last one stopped,
     * whether that many bytes hold whole units or not.
     */
    static Stream<Arguments> longMessages() {
        Stream<Arguments> blocks = Stream.of(8L, 24L, 512L, 520L, 2048L, 4097L).map(len -> Arguments.of(
                "long vector of " + len + " B blocks", Datatype.hvector((3 * (64L << 10)) / len + 5, 1, len + 8,
                        byteRun(len))));
        Stream<Arguments> pattern = Stream.of(Arguments.of("long vector of a two-run pattern",
                Datatype.hvector(9000, 1, 64, Datatype.hindexed(new long[] {12, 5}, new long[] {0, 20}, Named.BYTE))));
        return Stream.concat(blocks, pattern)
                .flatMap(a -> Stream.of(Memory.values()).map(m -> Arguments.of(a.get()[0], a.get()[1], m)));
    }

    private static Datatype byteRun(long len) {
        return Datatype.contiguous(len, Named.BYTE);
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource({"shapes", "manyRuns", "strategies", "longMessages"})
    void packAndUnpackMatchTheTypeMap(String name, Datatype type, Memory mem) {
        TypeCase c = TypeCase.of(type.commit(), 2);
        SplittableRandom rnd = new SplittableRandom(name.hashCode());
        TypedBuffer buf = TypedBuffer.of(c, rnd);
        byte[] src = buf.random(rnd);
        byte[] full = buf.gather(c.message(), src);
        int total = full.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment typed = mem.typed(arena, src);
            MemorySegment packed = mem.packed(arena, (long) total);
            assertEquals(total, c.type().cursor(2, typed, buf.origin()).pack(packed, 0, total), name);
            assertArrayEquals(full, bytes(packed), () -> "pack, " + c);

            MemorySegment back = mem.typed(arena, buf.sentinels());
            c.type().cursor(2, back, buf.origin()).unpack(packed, 0, total);
            assertArrayEquals(buf.overlay(buf.sentinels(), c.message(), src), bytes(back), () -> "unpack, " + c);

            // ranges starting and ending one byte either side of the first block's end
            long first = c.message().length(0);
            TypeCursor cur = c.type().cursor(2, typed, buf.origin());
            for (long from : new long[] {first - 1, first, first + 1, total / 2}) {
                long x = Math.clamp(from, 0, total);
                long n = Math.min(first + 2, total - x);
                MemorySegment out = mem.packed(arena, n);
                cur.seek(x);
                assertEquals(n, cur.pack(out, 0, n), name);
                assertArrayEquals(Arrays.copyOfRange(full, (int) x, (int) (x + n)), bytes(out),
                        () -> "seek(" + x + ") then pack, " + c);
            }
        }
    }
}
