package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_create_struct}: blocks of possibly different types at byte displacements. */
public final class StructType extends Datatype {
    private final long[] blocklengths;
    private final long[] displacementsBytes;
    private final List<Datatype> types;

    StructType(long[] blocklengths, long[] displacementsBytes, Datatype[] types) {
        long[] bls = Args.nonNegative("blocklengths", blocklengths);
        long[] disps = Args.notNull("displacements_bytes", displacementsBytes).clone();
        List<Datatype> members = checkedTypes(types);
        super(bounds(bls, disps, members));
        this.blocklengths = bls;
        this.displacementsBytes = disps;
        this.types = members;
    }

    private static List<Datatype> checkedTypes(Datatype[] types) {
        Args.notNull("types", types);
        for (int k = 0; k < types.length; k++) {
            Args.type("types[" + k + "]", types[k]);
        }
        return List.of(types);
    }

    private static Footprint.Bounds bounds(long[] bls, long[] disps, List<Datatype> types) {
        Args.sameLength("blocklengths", bls.length, "displacements_bytes", disps.length);
        Args.sameLength("blocklengths", bls.length, "types", types.size());
        Footprint f = new Footprint();
        for (int k = 0; k < bls.length; k++) {
            f.addStrided(disps[k], 1, 0, bls[k], types.get(k));
        }
        return f.bounds();
    }

    /** @return elements per member block */
    public long[] blocklengths() {
        return blocklengths.clone();
    }

    /** @return member displacements in bytes */
    public long[] displacementsBytes() {
        return displacementsBytes.clone();
    }

    /** @return member types */
    public List<Datatype> types() {
        return types;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.STRUCT, LongArrays.concat(new long[] {blocklengths.length}, blocklengths),
                displacementsBytes, types);
    }
}
