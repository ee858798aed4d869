package org.jspin.mpi;

import org.jspin.error.MpiException;
import org.jspin.mpi.topo.CartGrid;

/**
 * A communicator with a Cartesian topology ({@code MPI_Cart_create}): ranks in row-major order
 * over the grid, with optional periodic wrap per dimension.
 */
public final class CartComm extends Comm {
    private final CartGrid grid;

    CartComm(Comm group, CartGrid grid) {
        super(group);
        this.grid = grid;
    }

    /** The ranks a shift along one dimension pairs with ({@code MPI_Cart_shift}). */
    public record Shift(int source, int dest) {
    }

    /** @return the grid's extent per dimension */
    public int[] dims() {
        return grid.dims();
    }

    /** @return whether each dimension wraps */
    public boolean[] periods() {
        return grid.periods();
    }

    /** @return the number of dimensions */
    public int ndims() {
        return grid.ndims();
    }

    /** {@code MPI_Cart_coords}: the coordinates of {@code rank}. */
    public int[] coords(int rank) {
        checkLive();
        return grid.coords(rank);
    }

    /** @return this rank's coordinates */
    public int[] coords() {
        checkLive();
        return grid.coords(rank());
    }

    /** {@code MPI_Cart_rank}: the rank at {@code coords} (wrapped in periodic dimensions). */
    public int rankOf(int... coords) {
        checkLive();
        return grid.rank(coords);
    }

    /**
     * {@code MPI_Cart_shift}: the ranks {@code disp} steps back (source) and forward (dest) along
     * {@code direction}, {@link Comm#PROC_NULL} past a non-periodic border.
     *
     * @throws MpiException ERR_DIMS for a direction outside [0, ndims), ERR_COMM if freed
     */
    public Shift shift(int direction, int disp) {
        checkLive();
        int[] sd = grid.shift(rank(), direction, disp);
        return new Shift(sd[0], sd[1]);
    }

    @Override
    public String toString() {
        return "CartComm[" + grid + ", rank " + rank() + "]";
    }
}
