package org.jspin.datatype;

import java.util.Arrays;
import java.util.List;

/** {@code MPI_Type_create_indexed_block}: equal-length blocks at displacements in extents of the old type. */
public final class IndexedBlockType extends Datatype {
    private final long blocklength;
    private final long[] displacements;
    private final Datatype old;

    IndexedBlockType(long blocklength, long[] displacements, Datatype old) {
        Args.nonNegative("blocklength", blocklength);
        long[] disps = Args.notNull("displacements", displacements).clone();
        Args.type("old", old);
        super(new Footprint().addBlocks(filled(disps.length, blocklength), Footprint.scaled(disps, old.extent()),
                old).bounds());
        this.blocklength = blocklength;
        this.displacements = disps;
        this.old = old;
    }

    static long[] filled(int n, long value) {
        long[] a = new long[n];
        Arrays.fill(a, value);
        return a;
    }

    /** @return elements per block */
    public long blocklength() {
        return blocklength;
    }

    /** @return block displacements, in extents of {@link #old()} */
    public long[] displacements() {
        return displacements.clone();
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.INDEXED_BLOCK,
                Layouts.concat(new long[] {displacements.length, blocklength}, displacements), new long[0],
                List.of(old));
    }
}
