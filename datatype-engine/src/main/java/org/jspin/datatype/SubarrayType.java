package org.jspin.datatype;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * {@code MPI_Type_create_subarray}: an n-dimensional box of an array of the old type. Its lb is 0 and
 * its extent that of the whole array, so consecutive elements are consecutive whole arrays.
 */
public final class SubarrayType extends Datatype {
    private final long[] sizes;
    private final long[] subsizes;
    private final long[] starts;
    private final Order order;
    private final Datatype old;

    SubarrayType(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype old) {
        long[] sz = Args.notNull("sizes", sizes).clone();
        long[] sub = Args.notNull("subsizes", subsizes).clone();
        long[] st = Args.notNull("starts", starts).clone();
        Args.notNull("order", order);
        Args.type("old", old);
        check(sz, sub, st);
        super(bounds(sz, sub, st, order, old));
        this.sizes = sz;
        this.subsizes = sub;
        this.starts = st;
        this.order = order;
        this.old = old;
    }

    private static void check(long[] sizes, long[] subsizes, long[] starts) {
        if (sizes.length == 0) {
            throw new MpiException(ErrorClass.ERR_DIMS, "subarray needs at least one dimension, got sizes []");
        }
        Args.sameLength("sizes", sizes.length, "subsizes", subsizes.length);
        Args.sameLength("sizes", sizes.length, "starts", starts.length);
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 1) {
                throw new MpiException(ErrorClass.ERR_ARG, "sizes[" + i + "] must be at least 1, got " + sizes[i]);
            }
            if (subsizes[i] < 1 || subsizes[i] > sizes[i]) {
                throw new MpiException(ErrorClass.ERR_ARG, "subsizes[" + i + "] must be in [1, sizes[" + i + "] = "
                        + sizes[i] + "], got " + subsizes[i]);
            }
            if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i]) {
                throw new MpiException(ErrorClass.ERR_ARG, "starts[" + i + "] must be in [0, sizes - subsizes = "
                        + (sizes[i] - subsizes[i]) + "], got " + starts[i]);
            }
        }
    }

    /** @return byte stride of each dimension, in the array's storage order */
    static long[] byteStrides(long[] sizes, Order order, long extent) {
        int n = sizes.length;
        long[] strides = new long[n];
        long s = extent;
        for (int k = 0; k < n; k++) {
            int dim = order == Order.C ? n - 1 - k : k;
            strides[dim] = s;
            s = Args.mul(s, sizes[dim], "subarray extent");
        }
        return strides;
    }

    private static Footprint.Bounds bounds(long[] sizes, long[] subsizes, long[] starts, Order order,
            Datatype old) {
        long[] strides = byteStrides(sizes, order, old.extent());
        long whole = old.extent();
        long copies = 1;
        long min = 0;
        long max = 0;
        for (int i = 0; i < sizes.length; i++) {
            whole = Args.mul(whole, sizes[i], "subarray extent");
            copies = Args.mul(copies, subsizes[i], "subarray element count");
            long first = Args.mul(starts[i], strides[i], "subarray offset");
            long last = Args.mul(starts[i] + subsizes[i] - 1, strides[i], "subarray offset");
            min = Args.add(min, Math.min(first, last), "subarray offset");
            max = Args.add(max, Math.max(first, last), "subarray offset");
        }
        Footprint.Bounds b = new Footprint().add(copies, min, max, old).bounds();
        return b.withMarkers(0, whole);
    }

    /** @return the whole array's size per dimension */
    public long[] sizes() {
        return sizes.clone();
    }

    /** @return the box's size per dimension */
    public long[] subsizes() {
        return subsizes.clone();
    }

    /** @return the box's first index per dimension */
    public long[] starts() {
        return starts.clone();
    }

    /** @return the array's storage order */
    public Order order() {
        return order;
    }

    /** @return the array element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.SUBARRAY,
                LongArrays.concat(new long[] {sizes.length}, sizes, subsizes, starts, new long[] {order.ordinal()}),
                new long[0], List.of(old));
    }
}
