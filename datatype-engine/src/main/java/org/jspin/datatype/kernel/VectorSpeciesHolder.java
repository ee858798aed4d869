package org.jspin.datatype.kernel;

import java.nio.ByteOrder;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector species and byte order compiled kernels load with {@code getstatic}: static finals, so
 * the JIT sees constants and intrinsifies the vector loads and stores. Loaded only when the JVM has
 * {@code jdk.incubator.vector}.
 */
final class VectorSpeciesHolder {
    static final VectorSpecies<Byte> V16 = ByteVector.SPECIES_128;
    static final VectorSpecies<Byte> V32 = ByteVector.SPECIES_256;
    static final VectorSpecies<Byte> V64 = ByteVector.SPECIES_512;
    static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Widest vector in bytes the platform runs natively (16, 32 or 64). */
    static final int PREFERRED = Math.min(64, ByteVector.SPECIES_PREFERRED.vectorByteSize());

    private VectorSpeciesHolder() {
    }
}
