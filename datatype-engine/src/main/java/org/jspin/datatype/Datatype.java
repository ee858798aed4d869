package org.jspin.datatype;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.kernel.KernelSettings;
import org.jspin.datatype.lower.CompiledType;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * An MPI-style datatype: an immutable description of a type map (a sequence of named types at byte
 * displacements) with its bounds. Build one with the static constructors ({@link #vector},
 * {@link #struct}, {@link #subarray}, ...), {@link #commit()} it, then pack or unpack it with
 * {@link #cursor} or the whole-message helpers {@link #pack} and {@link #unpack}.
 *
 * <p>All sizes, counts and displacements are {@code long} bytes (or elements where the MPI
 * constructor takes elements). Bounds follow MPI 4.0 chapter 5 without implicit alignment padding
 * (see {@code DATATYPE-JSON.md}): padding is asked for with {@link #resized}.
 *
 * <p>Instances are immutable and safe to share between threads; {@link #commit()} is idempotent and
 * thread-safe.
 */
public abstract sealed class Datatype
        permits NamedType, DupType, ContiguousType, VectorType, HVectorType, IndexedType, HIndexedType,
        IndexedBlockType, HIndexedBlockType, StructType, SubarrayType, ResizedType {

    // The named types live here, not in NamedType: whichever class a program touches first, the
    // superclass initialises first, so constants held by the subclass could be read while still null.

    /** 1-byte integer ({@code MPI_BYTE}). */
    public static final NamedType BYTE = new NamedType("byte", 1);
    /** 2-byte integer ({@code MPI_SHORT}). */
    public static final NamedType SHORT = new NamedType("short", 2);
    /** 4-byte integer ({@code MPI_INT}). */
    public static final NamedType INT = new NamedType("int", 4);
    /** 8-byte integer ({@code MPI_LONG}). */
    public static final NamedType LONG = new NamedType("long", 8);
    /** 4-byte IEEE float ({@code MPI_FLOAT}). */
    public static final NamedType FLOAT = new NamedType("float", 4);
    /** 8-byte IEEE double ({@code MPI_DOUBLE}). */
    public static final NamedType DOUBLE = new NamedType("double", 8);

    private final long size;
    private final long lb;
    private final long ub;
    private final long trueLb;
    private final long trueUb;
    private final boolean explicitBounds;
    private volatile CompiledType compiled;

    Datatype(Footprint.Bounds bounds) {
        this.size = bounds.size();
        this.lb = bounds.lb();
        this.ub = bounds.ub();
        this.trueLb = bounds.trueLb();
        this.trueUb = bounds.trueUb();
        this.explicitBounds = bounds.explicit();
    }

    // ---- constructors -------------------------------------------------------------------------

    /** {@code MPI_Type_contiguous}: {@code count} consecutive copies of {@code old}. */
    public static Datatype contiguous(long count, Datatype old) {
        return new ContiguousType(count, old);
    }

    /** {@code MPI_Type_vector}: {@code count} blocks of {@code blocklength} elements, stride in extents of {@code old}. */
    public static Datatype vector(long count, long blocklength, long stride, Datatype old) {
        return new VectorType(count, blocklength, stride, old);
    }

    /** {@code MPI_Type_create_hvector}: like {@link #vector} with the stride in bytes. */
    public static Datatype hvector(long count, long blocklength, long strideBytes, Datatype old) {
        return new HVectorType(count, blocklength, strideBytes, old);
    }

    /** {@code MPI_Type_indexed}: blocks of given lengths at displacements in extents of {@code old}. */
    public static Datatype indexed(long[] blocklengths, long[] displacements, Datatype old) {
        return new IndexedType(blocklengths, displacements, old);
    }

    /** {@code MPI_Type_create_hindexed}: like {@link #indexed} with displacements in bytes. */
    public static Datatype hindexed(long[] blocklengths, long[] displacementsBytes, Datatype old) {
        return new HIndexedType(blocklengths, displacementsBytes, old);
    }

    /** {@code MPI_Type_create_indexed_block}: equal-length blocks at displacements in extents of {@code old}. */
    public static Datatype indexedBlock(long blocklength, long[] displacements, Datatype old) {
        return new IndexedBlockType(blocklength, displacements, old);
    }

    /** {@code MPI_Type_create_hindexed_block}: like {@link #indexedBlock} with displacements in bytes. */
    public static Datatype hindexedBlock(long blocklength, long[] displacementsBytes, Datatype old) {
        return new HIndexedBlockType(blocklength, displacementsBytes, old);
    }

    /** {@code MPI_Type_create_struct}: blocks of possibly different types at byte displacements. */
    public static Datatype struct(long[] blocklengths, long[] displacementsBytes, Datatype[] types) {
        return new StructType(blocklengths, displacementsBytes, types);
    }

    /** {@code MPI_Type_create_subarray}: a box of an n-dimensional array of {@code old}. */
    public static Datatype subarray(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype old) {
        return new SubarrayType(sizes, subsizes, starts, order, old);
    }

    /** {@code MPI_Type_create_resized}: {@code old} with its lb and extent set explicitly. */
    public static Datatype resized(long lb, long extent, Datatype old) {
        return new ResizedType(lb, extent, old);
    }

    /** {@code MPI_Type_dup}: a new type with the same type map (uncommitted: a dup commits on its own). */
    public Datatype dup() {
        return new DupType(this);
    }

    // ---- queries ------------------------------------------------------------------------------

    /** @return bytes of data in one element ({@code MPI_Type_size}) */
    public final long size() {
        return size;
    }

    /** @return the lower bound in bytes ({@code MPI_Type_get_extent}) */
    public final long lb() {
        return lb;
    }

    /** @return the upper bound in bytes */
    public final long ub() {
        return ub;
    }

    /** @return ub - lb: the distance between consecutive elements */
    public final long extent() {
        return ub - lb;
    }

    /** @return the lowest byte displacement holding data ({@code MPI_Type_get_true_extent}) */
    public final long trueLb() {
        return trueLb;
    }

    /** @return one past the highest byte displacement holding data */
    public final long trueUb() {
        return trueUb;
    }

    /** @return trueUb - trueLb */
    public final long trueExtent() {
        return trueUb - trueLb;
    }

    /**
     * @return whether lb and ub are explicit markers (set by resized or subarray, here or in a
     *         component), which take precedence over the data's bounds in an enclosing struct
     */
    public final boolean hasExplicitBounds() {
        return explicitBounds;
    }

    /** @return the constructor and argument counts ({@code MPI_Type_get_envelope}) */
    public final Envelope envelope() {
        return contents().envelope();
    }

    /** @return the constructor's arguments ({@code MPI_Type_get_contents}) */
    public abstract Contents contents();

    /** @return which constructor made this type */
    public final Combiner combiner() {
        return contents().combiner();
    }

    /** @return the direct component types (empty for named types) */
    public final List<Datatype> components() {
        return contents().datatypes();
    }

    // ---- commit -------------------------------------------------------------------------------

    /**
     * Normalises and compiles this type for communication ({@code MPI_Type_commit}). Idempotent and
     * thread-safe; components are not committed themselves.
     *
     * @return this type
     */
    public final Datatype commit() {
        if (compiled == null) {
            synchronized (this) {
                if (compiled == null) {
                    KernelSettings.current(); // a bad switch fails here, as ERR_ARG, before any kernel class loads
                    compiled = CompiledType.compile(this);
                }
            }
        }
        return this;
    }

    /** @return whether {@link #commit()} has been called */
    public final boolean isCommitted() {
        return compiled != null || this instanceof NamedType; // predefined types are always committed
    }

    /**
     * @return the compiled form of this committed type
     * @throws MpiException ERR_TYPE if the type has not been committed
     */
    public final CompiledType compiled() {
        CompiledType c = compiled;
        if (c == null && this instanceof NamedType) {
            return commit().compiled; // predefined types are committed from the start, compiled on first use
        }
        if (c == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype is not committed: " + abbreviated());
        }
        return c;
    }

    // ---- data movement (committed types) ------------------------------------------------------

    /**
     * A cursor over {@code count} elements of this committed type laid out in {@code buffer}, whose
     * origin (displacement 0) is the segment's first byte.
     */
    public final TypeCursor cursor(long count, MemorySegment buffer) {
        return cursor(count, buffer, 0);
    }

    /**
     * A cursor over {@code count} elements whose origin is byte {@code origin} of {@code buffer}
     * (negative displacements reach below it).
     *
     * @throws MpiException ERR_TYPE if uncommitted, ERR_COUNT for a negative count, ERR_BUFFER if the
     *                      type map reaches outside the buffer
     */
    public final TypeCursor cursor(long count, MemorySegment buffer, long origin) {
        return compiled().cursor(count, buffer, origin);
    }

    /** @return bytes {@code count} elements occupy once packed ({@code MPI_Pack_size}, exact) */
    public final long packSize(long count) {
        Args.count("count", count);
        try {
            return Math.multiplyExact(count, size);
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT,
                    "count " + count + " times the type size " + size + " overflows 64 bits");
        }
    }

    /**
     * Packs {@code count} elements from {@code typed} (origin at its first byte) into the start of
     * {@code packed}.
     *
     * @return bytes written
     */
    public final long pack(long count, MemorySegment typed, MemorySegment packed) {
        TypeCursor c = cursor(count, typed);
        return c.pack(packed, 0, c.remaining());
    }

    /**
     * Unpacks {@code count} elements from the start of {@code packed} into {@code typed} (origin at its
     * first byte).
     *
     * @return bytes read
     */
    public final long unpack(long count, MemorySegment packed, MemorySegment typed) {
        TypeCursor c = cursor(count, typed);
        return c.unpack(packed, 0, c.remaining());
    }

    /**
     * The flattened type map of {@code count} elements: contiguous regions in type-map order, merged
     * where one starts exactly where the previous ends. Streams: nothing proportional to the region
     * count is allocated. Works on uncommitted types too (compiling privately).
     */
    public final RegionIterator regions(long count) {
        Args.count("count", count);
        CompiledType c = compiled;
        return (c != null ? c : CompiledType.layoutOnly(this)).regions(count);
    }

    /** @return the start of this type's description, for error messages */
    final String abbreviated() {
        String s = toString();
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }

    /** @return this type's JSON description ({@code DATATYPE-JSON.md}) */
    @Override
    public String toString() {
        return DatatypeJson.write(this);
    }
}
