package org.jspin.mpi.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Ranks;
import org.junit.jupiter.api.Test;

class CartGridTest {
    private final CartGrid grid = new CartGrid(new int[] {3, 4}, new boolean[] {false, true});

    @Test
    void coordsAndRankAreInverseInRowMajorOrder() {
        assertArrayEquals(new int[] {0, 0}, grid.coords(0));
        assertArrayEquals(new int[] {0, 3}, grid.coords(3));
        assertArrayEquals(new int[] {1, 0}, grid.coords(4));
        assertArrayEquals(new int[] {2, 3}, grid.coords(11));
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(r, grid.rank(grid.coords(r)));
        }
    }

    @Test
    void periodicCoordinatesWrapAndOthersAreErrors() {
        assertEquals(grid.rank(new int[] {1, 0}), grid.rank(new int[] {1, 4}));
        assertEquals(grid.rank(new int[] {1, 3}), grid.rank(new int[] {1, -1}));
        MpiException e = assertThrows(MpiException.class, () -> grid.rank(new int[] {3, 0}));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
    }

    @Test
    void shiftGivesProcNullBeyondANonPeriodicBorder() {
        int corner = grid.rank(new int[] {0, 0});
        assertArrayEquals(new int[] {Ranks.PROC_NULL, grid.rank(new int[] {1, 0})}, grid.shift(corner, 0, 1));
        assertArrayEquals(new int[] {grid.rank(new int[] {0, 3}), grid.rank(new int[] {0, 1})},
                grid.shift(corner, 1, 1), "dimension 1 wraps");
        int last = grid.rank(new int[] {2, 0});
        assertArrayEquals(new int[] {grid.rank(new int[] {1, 0}), Ranks.PROC_NULL}, grid.shift(last, 0, 1));
        assertArrayEquals(new int[] {Ranks.PROC_NULL, Ranks.PROC_NULL}, grid.shift(corner, 0, 5));
        assertArrayEquals(new int[] {grid.rank(new int[] {0, 2}), grid.rank(new int[] {0, 2})},
                grid.shift(corner, 1, 2), "two steps on a ring of four reach the same rank both ways");
        // Integer.MIN_VALUE steps on a ring of three: 2^31 = 2 (mod 3) back, and as many forward
        CartGrid ring = new CartGrid(new int[] {3}, new boolean[] {true});
        assertArrayEquals(new int[] {2, 1}, ring.shift(0, 0, Integer.MIN_VALUE), "source 0 + 2^31, dest 0 - 2^31");
    }

    @Test
    void badArgumentsNameTheirValue() {
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> grid.coords(12)).errorClass());
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiException.class, () -> grid.shift(0, 2, 1)).errorClass());
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiException.class,
                () -> new CartGrid(new int[] {2, 0}, new boolean[] {false, false})).errorClass());
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiException.class,
                () -> new CartGrid(new int[] {2}, new boolean[] {false, false})).errorClass());
    }
}
