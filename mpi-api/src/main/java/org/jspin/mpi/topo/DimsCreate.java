package org.jspin.mpi.topo;

import java.util.Arrays;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * {@code MPI_Dims_create}: a balanced Cartesian grid of {@code nnodes} ranks. Entries of the given
 * dims that are positive are kept; the zero entries are filled with factors of the rest, as close to
 * each other as possible, in non-increasing order.
 */
public final class DimsCreate {
    private DimsCreate() {
    }

    /**
     * @param nnodes ranks in the grid
     * @param dims   the requested dimensions: 0 where free, positive where fixed
     * @return a new array with every free entry filled
     * @throws MpiException ERR_DIMS if a dimension is negative, or the fixed ones do not divide nnodes
     */
    public static int[] dimsCreate(int nnodes, int[] dims) {
        if (nnodes < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "nnodes must be at least 1, got " + nnodes);
        }
        if (dims == null) {
            throw new MpiException(ErrorClass.ERR_DIMS, "dims must not be null");
        }
        int fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new MpiException(ErrorClass.ERR_DIMS, "dims[" + i + "] must not be negative, got " + dims[i]);
            }
            if (dims[i] == 0) {
                free++;
            } else {
                try {
                    fixed = Math.multiplyExact(fixed, dims[i]);
                } catch (ArithmeticException e) {
                    // an ArithmeticException escaped here before (found by CallFuzzTest)
                    throw new MpiException(ErrorClass.ERR_DIMS, "the fixed dimensions " + Arrays.toString(dims)
                            + " multiply to more than " + Integer.MAX_VALUE);
                }
            }
        }
        if (nnodes % fixed != 0) {
            throw new MpiException(ErrorClass.ERR_DIMS, "the fixed dimensions " + Arrays.toString(dims)
                    + " (product " + fixed + ") do not divide nnodes " + nnodes);
        }
        if (free == 0 && fixed != nnodes) {
            throw new MpiException(ErrorClass.ERR_DIMS,
                    "dims " + Arrays.toString(dims) + " multiply to " + fixed + ", not nnodes " + nnodes);
        }
        int[] factors = balanced(nnodes / fixed, free);
        int[] out = dims.clone();
        for (int i = 0, f = 0; i < out.length; i++) {
            if (out[i] == 0) {
                out[i] = factors[f++];
            }
        }
        return out;
    }

    /**
     * @return {@code k} factors of {@code n}, non-increasing, whose largest is as small as possible
     *         and, for that largest, the rest balanced the same way (empty for k = 0)
     */
    static int[] balanced(int n, int k) {
        if (k == 0) {
            return new int[0];
        }
        int[] best = best(n, k, n);
        if (best == null) {
            throw new IllegalStateException("no decomposition of " + n + " into " + k + " factors");
        }
        return best;
    }

    /** The balanced decomposition of n into k factors all at most {@code cap}, or null if none exists. */
    private static int[] best(int n, int k, int cap) {
        if (k == 1) {
            return n <= cap ? new int[] {n} : null;
        }
        // the largest factor is at least the k-th root of n: try divisors upwards from there
        int low = (int) Math.ceil(Math.pow(n, 1.0 / k) - 1e-9);
        for (int d = Math.max(1, low); d <= Math.min(n, cap); d++) {
            if (n % d != 0) {
                continue;
            }
            int[] rest = best(n / d, k - 1, d);
            if (rest != null) {
                int[] out = new int[k];
                out[0] = d;
                System.arraycopy(rest, 0, out, 1, k - 1);
                return out;
            }
        }
        return null;
    }
}
