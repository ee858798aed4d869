package org.jspin.mpi.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DimsCreateTest {
    @ParameterizedTest(name = "{0} ranks over {1} -> {2}")
    @CsvSource({
        "12, '0 0', '4 3'",
        "16, '0 0', '4 4'",
        "6, '0 0 0', '3 2 1'",
        "7, '0 0', '7 1'",
        "24, '0 0 0', '4 3 2'",
        "90, '0 0', '10 9'",
        "64, '0 0 0', '4 4 4'",
        "12, '0 3', '4 3'",
        "12, '2 0 0', '2 3 2'",
        "1, '0 0 0', '1 1 1'",
        "8, '2 2 2', '2 2 2'"})
    void fillsTheFreeDimensionsAsEvenlyAsPossible(int nnodes, String dims, String expect) {
        assertArrayEquals(parse(expect), DimsCreate.dimsCreate(nnodes, parse(dims)));
    }

    @Test
    void freeDimensionsAreNonIncreasingAndMultiplyToTheRanks() {
        for (int n = 1; n <= 300; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] d = DimsCreate.dimsCreate(n, new int[k]);
                assertEquals(n, IntStream.of(d).reduce(1, (a, b) -> a * b), n + " over " + k);
                for (int i = 1; i < k; i++) {
                    assertTrue(d[i - 1] >= d[i], n + " over " + k + ": not non-increasing");
                }
            }
        }
    }

    @Test
    void badDimensionsAreErrors() {
        MpiException neg = assertThrows(MpiException.class, () -> DimsCreate.dimsCreate(4, new int[] {0, -2}));
        assertEquals(ErrorClass.ERR_DIMS, neg.errorClass());
        assertTrue(neg.getMessage().contains("-2"));
        MpiException div = assertThrows(MpiException.class, () -> DimsCreate.dimsCreate(10, new int[] {3, 0}));
        assertEquals(ErrorClass.ERR_DIMS, div.errorClass());
        assertThrows(MpiException.class, () -> DimsCreate.dimsCreate(8, new int[] {2, 2}));
        assertEquals(ErrorClass.ERR_ARG,
                assertThrows(MpiException.class, () -> DimsCreate.dimsCreate(0, new int[] {0})).errorClass());
        // fixed dimensions whose product overflows an int (an ArithmeticException escaped before)
        MpiException big = assertThrows(MpiException.class,
                () -> DimsCreate.dimsCreate(12, new int[] {1 << 16, 1 << 16, 0}));
        assertEquals(ErrorClass.ERR_DIMS, big.errorClass());
        assertTrue(big.getMessage().contains("[65536, 65536, 0]"), big.getMessage());
    }

    private static int[] parse(String s) {
        return java.util.Arrays.stream(s.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }
}
