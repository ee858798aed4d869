package org.jspin.datatype;

import java.util.List;

/**
 * {@code MPI_Type_create_resized}: the old type map with explicitly set lb and extent (the standard's
 * lb/ub markers). The true bounds and the data are those of the old type.
 */
public final class ResizedType extends Datatype {
    private final long newLb;
    private final long newExtent;
    private final Datatype old;

    ResizedType(long lb, long extent, Datatype old) {
        super(new Footprint.Bounds(Args.type("old", old).size(), lb, Args.add(lb, extent, "ub"), old.trueLb(),
                old.trueUb(), true));
        this.newLb = lb;
        this.newExtent = extent;
        this.old = old;
    }

    /** @return the resized type's argument type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.RESIZED, new long[0], new long[] {newLb, newExtent}, List.of(old));
    }
}
