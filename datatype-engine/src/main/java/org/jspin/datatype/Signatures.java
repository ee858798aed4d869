package org.jspin.datatype;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Counting a type's basic elements: the entries of its type signature (the sequence of named types,
 * displacements aside). What {@code MPI_Get_elements} reports for a received byte count.
 */
public final class Signatures {
    /** {@code MPI_UNDEFINED}: the byte count ends inside a basic element. */
    public static final long UNDEFINED = -32766;

    private Signatures() {
    }

    /** @return the named-type entries in one element of {@code t} */
    public static long basicElements(Datatype t) {
        return switch (t) {
            case NamedType n -> 1;
            case DupType d -> basicElements(d.old());
            case ResizedType r -> basicElements(r.old());
            case ContiguousType c -> times(c.count(), c.old());
            case VectorType v -> times(Args.mul(v.count(), v.blocklength(), "element count"), v.old());
            case HVectorType v -> times(Args.mul(v.count(), v.blocklength(), "element count"), v.old());
            case IndexedType x -> times(sum(x.blocklengths()), x.old());
            case HIndexedType x -> times(sum(x.blocklengths()), x.old());
            case IndexedBlockType x -> times(Args.mul(x.blocklength(), x.displacements().length, "element count"),
                    x.old());
            case HIndexedBlockType x -> times(Args.mul(x.blocklength(), x.displacementsBytes().length,
                    "element count"), x.old());
            case StructType s -> {
                long e = 0;
                long[] bls = s.blocklengths();
                List<Datatype> types = s.types();
                for (int k = 0; k < bls.length; k++) {
                    e = Args.add(e, times(bls[k], types.get(k)), "element count");
                }
                yield e;
            }
            case SubarrayType s -> times(product(s.subsizes()), s.old());
        };
    }

    /**
     * {@code MPI_Get_elements}: the basic elements in the first {@code bytes} packed bytes of a
     * message of consecutive elements of {@code t}.
     *
     * @return the count, or {@link #UNDEFINED} if {@code bytes} ends inside a basic element
     */
    public static long elementsIn(Datatype t, long bytes) {
        if (bytes < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "byte count must be non-negative, got " + bytes);
        }
        if (t.size() == 0) {
            return bytes == 0 ? 0 : UNDEFINED;
        }
        long whole = bytes / t.size();
        long partial = prefix(t, bytes % t.size());
        return partial < 0 ? UNDEFINED : Args.add(Args.mul(whole, basicElements(t), "element count"), partial,
                "element count");
    }

    /** Basic elements in the first {@code r} bytes of one element (r below its size), or -1 mid-element. */
    private static long prefix(Datatype t, long r) {
        if (r == 0) {
            return 0;
        }
        return switch (t) {
            case NamedType n -> -1; // 0 < r < size: inside the element
            case DupType d -> prefix(d.old(), r);
            case ResizedType x -> prefix(x.old(), r);
            case ContiguousType c -> copies(c.old(), r);
            case VectorType v -> copies(v.old(), r);
            case HVectorType v -> copies(v.old(), r);
            case IndexedType x -> copies(x.old(), r);
            case HIndexedType x -> copies(x.old(), r);
            case IndexedBlockType x -> copies(x.old(), r);
            case HIndexedBlockType x -> copies(x.old(), r);
            case SubarrayType s -> copies(s.old(), r);
            case StructType s -> {
                long e = 0;
                long[] bls = s.blocklengths();
                List<Datatype> types = s.types();
                for (int k = 0; k < bls.length && r > 0; k++) {
                    Datatype m = types.get(k);
                    long block = Args.mul(bls[k], m.size(), "block size");
                    if (r >= block) {
                        e = Args.add(e, times(bls[k], m), "element count");
                        r -= block;
                    } else {
                        long p = copies(m, r);
                        yield p < 0 ? -1 : e + p;
                    }
                }
                yield e;
            }
        };
    }

    /** Basic elements in the first {@code r} bytes of a run of copies of {@code old}. */
    private static long copies(Datatype old, long r) {
        long p = prefix(old, r % old.size());
        return p < 0 ? -1 : (r / old.size()) * basicElements(old) + p;
    }

    private static long times(long copies, Datatype old) {
        return Args.mul(copies, basicElements(old), "element count");
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s = Args.add(s, v, "element count");
        }
        return s;
    }

    private static long product(long[] a) {
        long p = 1;
        for (long v : a) {
            p = Args.mul(p, v, "element count");
        }
        return p;
    }
}
