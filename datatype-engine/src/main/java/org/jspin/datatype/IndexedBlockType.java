package org.jspin.datatype;

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
        super(new Footprint().addBlocks(LongArrays.filled(disps.length, blocklength), Footprint.scaled(disps, old.extent()),
                old).bounds());
        this.blocklength = blocklength;
        this.displacements = disps;
        this.old = old;
    }

    /** @return elements per block */
    public long blocklength() {
        return blocklength;
    }

    /** @return block displacements, in extents of {@link #old()} */
    public long[] displacements() {
        return displacements.clone();
    }

    /** @return block displacements in bytes (displacements times the old type's extent) */
    public long[] displacementsBytes() {
        return Footprint.scaled(displacements, old.extent());
    }

    /** @return the block length of every block, one entry per displacement */
    public long[] blocklengths() {
        return LongArrays.filled(displacements.length, blocklength);
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.INDEXED_BLOCK,
                LongArrays.concat(new long[] {displacements.length, blocklength}, displacements), new long[0],
                List.of(old));
    }
}
