package org.jspin.mpi.topo;

import java.util.Arrays;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Ranks;

/**
 * The geometry of a Cartesian topology ({@code MPI_Cart_create} with {@code reorder = false}): ranks
 * laid out in row-major order over {@code dims}, each dimension periodic or not. Answers
 * {@code MPI_Cart_coords}, {@code MPI_Cart_rank} and {@code MPI_Cart_shift}; immutable.
 */
public final class CartGrid {
    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    /**
     * @throws MpiException ERR_DIMS for a non-positive dimension or mismatched arrays
     */
    public CartGrid(int[] dims, boolean[] periods) {
        if (dims == null || periods == null) {
            throw new MpiException(ErrorClass.ERR_DIMS, "dims and periods must not be null");
        }
        if (dims.length != periods.length) {
            throw new MpiException(ErrorClass.ERR_DIMS,
                    "dims has " + dims.length + " entries but periods has " + periods.length);
        }
        int n = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 1) {
                throw new MpiException(ErrorClass.ERR_DIMS, "dims[" + i + "] must be at least 1, got " + dims[i]);
            }
            try {
                n = Math.multiplyExact(n, dims[i]);
            } catch (ArithmeticException e) {
                throw new MpiException(ErrorClass.ERR_DIMS, "grid " + Arrays.toString(dims)
                        + " has more than " + Integer.MAX_VALUE + " ranks");
            }
        }
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.size = n;
    }

    /** @return ranks in the grid (the product of the dimensions) */
    public int size() {
        return size;
    }

    /** @return the number of dimensions */
    public int ndims() {
        return dims.length;
    }

    /** @return the dimensions */
    public int[] dims() {
        return dims.clone();
    }

    /** @return which dimensions wrap around */
    public boolean[] periods() {
        return periods.clone();
    }

    /**
     * @return the coordinates of {@code rank} (row-major: the last dimension varies fastest)
     * @throws MpiException ERR_RANK if the rank is not in the grid
     */
    public int[] coords(int rank) {
        if (rank < 0 || rank >= size) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank must be in [0, " + size + "), got " + rank);
        }
        int[] c = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rank % dims[i];
            rank /= dims[i];
        }
        return c;
    }

    /**
     * @return the rank at {@code coords}; a coordinate outside a periodic dimension wraps around
     * @throws MpiException ERR_ARG for a coordinate outside a non-periodic dimension or the wrong
     *                      number of coordinates
     */
    public int rank(int[] coords) {
        if (coords == null || coords.length != dims.length) {
            throw new MpiException(ErrorClass.ERR_ARG, "expected " + dims.length + " coordinates, got "
                    + (coords == null ? "null" : Arrays.toString(coords)));
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw new MpiException(ErrorClass.ERR_ARG, "coordinate " + c + " of dimension " + i
                            + " lies outside [0, " + dims[i] + ") and the dimension is not periodic");
                }
                c = Math.floorMod(c, dims[i]);
            }
            r = r * dims[i] + c;
        }
        return r;
    }

    /**
     * {@code MPI_Cart_shift}: the neighbours of {@code rank} {@code disp} steps along
     * {@code direction}.
     *
     * @return {source, dest}: the rank {@code disp} steps back and the one {@code disp} steps
     *         forward, {@link Ranks#PROC_NULL} where that falls beyond a non-periodic border
     */
    public int[] shift(int rank, int direction, int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw new MpiException(ErrorClass.ERR_DIMS,
                    "direction must be in [0, " + dims.length + "), got " + direction);
        }
        int[] c = coords(rank);
        // -(long) disp: -disp overflows for Integer.MIN_VALUE, which gave a wrong source in a
        // periodic dimension (found by CallFuzzTest)
        return new int[] {neighbour(c, direction, -(long) disp), neighbour(c, direction, disp)};
    }

    private int neighbour(int[] coords, int direction, long disp) {
        int[] c = coords.clone();
        long moved = (long) c[direction] + disp;
        if (!periods[direction] && (moved < 0 || moved >= dims[direction])) {
            return Ranks.PROC_NULL;
        }
        c[direction] = (int) Math.floorMod(moved, (long) dims[direction]);
        return rank(c);
    }

    @Override
    public String toString() {
        return "cart" + Arrays.toString(dims) + " periods " + Arrays.toString(periods);
    }
}
