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
    /**
     * The concrete vector classes of {@link #V16}, {@link #V32}, {@link #V64} (package-private in
     * the JDK, so reachable only as {@code Class} objects). A kernel casts each loaded vector to its
     * class with {@link Class#cast}: with a constant class C2 then knows the vector's exact type
     * when it inlines the store, and does not consult the type profile of the store's internal
     * virtual calls. That profile is shared by every caller in the JVM: once a kernel of another
     * width had run in the interpreter or C1, C2 saw two vector classes there, could not prove the
     * store's species constant, and called the store out of line on a boxed vector. With {@code
     * -XX:-TieredCompilation} (how {@code jspin run} starts ranks that outnumber the CPUs), {@code
     * jspin bench pack} over the small blocks packed 32-128 B at 0.10-0.26 of the copy in every
     * launch without the cast; with it, 64 and 128 B packed at 0.77-0.90 (5 alternating pairs;
     * see {@code VectorStoreTypeTest}).
     */
    static final Class<?> T16 = V16.vectorType();
    static final Class<?> T32 = V32.vectorType();
    static final Class<?> T64 = V64.vectorType();

    /** Widest vector in bytes the platform runs natively (16, 32 or 64). */
    static final int PREFERRED = Math.min(64, ByteVector.SPECIES_PREFERRED.vectorByteSize());

    private VectorSpeciesHolder() {
    }
}
