package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_create_hindexed_block}: equal-length blocks at byte displacements. */
public final class HIndexedBlockType extends Datatype {
    private final long blocklength;
    private final long[] displacementsBytes;
    private final Datatype old;

    HIndexedBlockType(long blocklength, long[] displacementsBytes, Datatype old) {
        Args.nonNegative("blocklength", blocklength);
        long[] disps = Args.notNull("displacements_bytes", displacementsBytes).clone();
        Args.type("old", old);
        super(new Footprint().addBlocks(LongArrays.filled(disps.length, blocklength), disps, old).bounds());
        this.blocklength = blocklength;
        this.displacementsBytes = disps;
        this.old = old;
    }

    /** @return elements per block */
    public long blocklength() {
        return blocklength;
    }

    /** @return block displacements in bytes */
    public long[] displacementsBytes() {
        return displacementsBytes.clone();
    }

    /** @return the block length of every block, one entry per displacement */
    public long[] blocklengths() {
        return LongArrays.filled(displacementsBytes.length, blocklength);
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.HINDEXED_BLOCK, new long[] {displacementsBytes.length, blocklength},
                displacementsBytes, List.of(old));
    }
}
