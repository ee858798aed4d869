package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The moves a compiled unit is made of ({@link Kernels#plan}): at most {@link Kernels#MAX_UNIT_MOVES},
 * each piece's bytes moved exactly (nothing outside the piece, nothing missed), and as unrolled as the
 * budget allows. On a machine without SIMD the move widths differ, and the same properties hold.
 */
class UnitPlanTest {

    static Stream<Arguments> units() {
        Stream<Arguments> fixed = Stream.of(
                Arguments.of("one 1 KiB block", new long[] {1024}),
                Arguments.of("one 1000 B block", new long[] {1000}),
                Arguments.of("one 2 KiB block", new long[] {2048}),
                Arguments.of("two 512 B runs", new long[] {512, 520}),
                Arguments.of("16 runs of 512-520 B", IntStream.range(0, 16).mapToLong(i -> 512 + 8 * (i % 2)).toArray()),
                Arguments.of("16 runs of 16 KiB", IntStream.range(0, 16).mapToLong(i -> 16384).toArray()),
                Arguments.of("16 runs of 3 B", IntStream.range(0, 16).mapToLong(i -> 3).toArray()));
        // seeded random units; a failing one names its seed
        Stream<Arguments> random = IntStream.range(0, 40).mapToObj(seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            long[] lens = rnd.longs(1 + rnd.nextInt(Kernels.MAX_PIECES), 1, 1 + (1L << rnd.nextInt(1, 13))).toArray();
            return Arguments.of("random unit, seed " + seed, lens);
        });
        return Stream.concat(fixed, random);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void movesEveryByteOfEachPieceWithinTheBudget(String name, long[] lens) {
        long[] disps = new long[lens.length];
        for (int e = 1; e < lens.length; e++) {
            disps[e] = disps[e - 1] + lens[e - 1] + 24; // gaps between the runs
        }
        int unroll = Move.UNROLL;
        List<Move> moves = Kernels.plan(disps, lens, unroll);
        if (moves == null) { // only when a loop per piece is still too much
            assertTrue(2 * lens.length > Kernels.MAX_UNIT_MOVES, name);
            return;
        }
        assertTrue(moves.size() <= Kernels.MAX_UNIT_MOVES, name + ": " + moves.size() + " moves");

        long end = disps[lens.length - 1] + lens[lens.length - 1];
        int[] typedCover = new int[(int) end];
        long packedSize = 0;
        for (long len : lens) {
            packedSize += len;
        }
        int[] packedCover = new int[(int) packedSize];
        for (Move m : moves) {
            long bytes = m.width() == 0 ? m.repeat() : m.width() * m.repeat();
            for (long b = 0; b < bytes; b++) {
                typedCover[(int) (m.typedOff() + b)]++;
                packedCover[(int) (m.packedOff() + b)]++;
                assertEquals(m.typedOff() - m.packedOff(), offsetOfPieceAt(disps, lens, m.packedOff() + b),
                        name + ": a move reaches across pieces, " + m);
            }
        }
        long packed = 0;
        for (int e = 0; e < lens.length; e++) {
            for (long b = 0; b < lens[e]; b++) {
                assertTrue(typedCover[(int) (disps[e] + b)] > 0, name + ": byte " + b + " of piece " + e + " not moved");
            }
            if (e + 1 < lens.length) {
                for (long g = disps[e] + lens[e]; g < disps[e + 1]; g++) {
                    assertEquals(0, typedCover[(int) g], name + ": gap byte " + g + " written");
                }
            }
            packed += lens[e];
        }
        assertEquals(packedSize, packed);
        assertArrayEquals(new int[0], IntStream.range(0, packedCover.length).filter(i -> packedCover[i] == 0).toArray(),
                name + ": packed bytes not written");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void aUnitWithinTheBudgetIsPlannedAsAsked(String name, long[] lens) {
        long[] disps = new long[lens.length];
        for (int e = 1; e < lens.length; e++) {
            disps[e] = disps[e - 1] + lens[e - 1] + 24;
        }
        int unroll = Move.UNROLL;
        List<Move> asked = new ArrayList<>();
        long packed = 0;
        for (int e = 0; e < lens.length; e++) {
            Move.piece(asked, disps[e], packed, lens[e], Kernels.vectorWidth(), unroll);
            packed += lens[e];
        }
        List<Move> planned = Kernels.plan(disps, lens, unroll);
        if (asked.size() <= Kernels.MAX_UNIT_MOVES) {
            assertEquals(asked, planned, name + ": unrolled less than it could");
        } else {
            assertTrue(planned == null || planned.size() < asked.size(), name);
        }
    }

    @ParameterizedTest(name = "{0}-byte vectors")
    @ValueSource(ints = {16, 32, 64})
    void aPieceLongerThanTheUnrollIsALoopOfWideVectorsOrOneBulkCopy(int width) {
        int moves = Move.unrolled(width, Move.UNROLL);
        assertEquals(width < Move.LOOP_MIN_WIDTH ? 2 * Move.UNROLL : Move.UNROLL, moves,
                "narrow vectors unroll twice as far, since their long pieces are bulk copies, not loops");
        long unrolled = (long) moves * width;
        List<Move> fits = new ArrayList<>();
        Move.piece(fits, 0, 0, unrolled, width, Move.UNROLL);
        assertEquals(moves, fits.size(), "a piece of that many moves is unrolled: " + fits);
        assertTrue(fits.stream().allMatch(m -> m.width() == width && m.repeat() == 1), fits.toString());

        List<Move> longer = new ArrayList<>();
        Move.piece(longer, 8, 0, 2 * unrolled, width, Move.UNROLL);
        Move expected = width >= Move.LOOP_MIN_WIDTH ? new Move(8, 0, width, 2L * moves)
                : new Move(8, 0, 0, 2 * unrolled);
        assertEquals(List.of(expected), longer);
    }

    @Test
    void withoutVectorsShortPiecesAreLongsAndLongOnesOneBulkCopy() {
        List<Move> shortPiece = new ArrayList<>();
        Move.piece(shortPiece, 0, 0, 64, 0, Move.UNROLL);
        assertEquals(8, shortPiece.size());
        assertTrue(shortPiece.stream().allMatch(m -> m.width() == 8), shortPiece.toString());
        List<Move> longPiece = new ArrayList<>();
        Move.piece(longPiece, 0, 0, Move.BULK_SCALAR, 0, Move.UNROLL);
        assertEquals(List.of(new Move(0, 0, 0, Move.BULK_SCALAR)), longPiece);
    }

    /** @return typed minus packed offset of the piece holding packed byte {@code p} */
    private static long offsetOfPieceAt(long[] disps, long[] lens, long p) {
        long packed = 0;
        for (int e = 0; e < lens.length; e++) {
            if (p < packed + lens[e]) {
                return disps[e] - packed;
            }
            packed += lens[e];
        }
        throw new AssertionError("packed byte " + p + " is past the unit");
    }
}
