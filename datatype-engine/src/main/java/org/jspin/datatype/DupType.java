package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_dup}: the same type map as the original, a separate type. */
public final class DupType extends Datatype {
    private final Datatype old;

    DupType(Datatype old) {
        super(bounds(Args.type("old", old)));
        this.old = old;
    }

    private static Footprint.Bounds bounds(Datatype old) {
        return new Footprint.Bounds(old.size(), old.lb(), old.ub(), old.trueLb(), old.trueUb(),
                old.hasExplicitBounds());
    }

    /** @return the duplicated type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.DUP, new long[0], new long[0], List.of(old));
    }
}
