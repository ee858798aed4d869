package org.jspin.datatype;

import java.util.Arrays;
import java.util.List;

/**
 * What {@code MPI_Type_get_contents} returns: the constructor's arguments, in the layout the MPI
 * standard gives for each combiner (for example {@code VECTOR}: integers {count, blocklength, stride};
 * {@code HVECTOR}: integers {count, blocklength}, addresses {stride}). A subarray's order is the
 * integer {@link Order#ordinal()}.
 *
 * @param combiner  the constructor
 * @param integers  integer arguments
 * @param addresses byte-displacement arguments
 * @param datatypes datatype arguments
 */
public record Contents(Combiner combiner, long[] integers, long[] addresses, List<Datatype> datatypes) {
    /** Copies the arrays so that the record is immutable. */
    public Contents {
        integers = integers.clone();
        addresses = addresses.clone();
        datatypes = List.copyOf(datatypes);
    }

    @Override
    public long[] integers() {
        return integers.clone();
    }

    @Override
    public long[] addresses() {
        return addresses.clone();
    }

    /** @return the envelope matching these contents */
    public Envelope envelope() {
        return new Envelope(combiner, integers.length, addresses.length, datatypes.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Contents c && c.combiner == combiner && Arrays.equals(c.integers, integers)
                && Arrays.equals(c.addresses, addresses) && c.datatypes.equals(datatypes);
    }

    @Override
    public int hashCode() {
        return combiner.hashCode() * 31 + Arrays.hashCode(integers) * 17 + Arrays.hashCode(addresses);
    }

    @Override
    public String toString() {
        return combiner + "{integers=" + Arrays.toString(integers) + ", addresses=" + Arrays.toString(addresses)
                + ", datatypes=" + datatypes.size() + "}";
    }
}
