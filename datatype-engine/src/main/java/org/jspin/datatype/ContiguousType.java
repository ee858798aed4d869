package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_contiguous}: {@code count} copies of the old type, one extent apart. */
public final class ContiguousType extends Datatype {
    private final long count;
    private final Datatype old;

    ContiguousType(long count, Datatype old) {
        super(new Footprint().addStrided(0, Args.count("count", count), Args.type("old", old).extent(), 1, old)
                .bounds());
        this.count = count;
        this.old = old;
    }

    /** @return number of copies */
    public long count() {
        return count;
    }

    /** @return the replicated type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.CONTIGUOUS, new long[] {count}, new long[0], List.of(old));
    }
}
