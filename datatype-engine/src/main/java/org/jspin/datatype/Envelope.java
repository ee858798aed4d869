package org.jspin.datatype;

/**
 * What {@code MPI_Type_get_envelope} returns: the constructor and how many arguments of each kind
 * {@link Datatype#contents()} will hand back.
 *
 * @param combiner     the constructor
 * @param numIntegers  count of integer arguments
 * @param numAddresses count of address-sized (byte displacement) arguments
 * @param numDatatypes count of datatype arguments
 */
public record Envelope(Combiner combiner, int numIntegers, int numAddresses, int numDatatypes) {
}
