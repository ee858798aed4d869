package org.jspin.datatype.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

import org.jspin.datatype.ContiguousType;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.DupType;
import org.jspin.datatype.HIndexedBlockType;
import org.jspin.datatype.HIndexedType;
import org.jspin.datatype.HVectorType;
import org.jspin.datatype.IndexedBlockType;
import org.jspin.datatype.IndexedType;
import org.jspin.datatype.NamedType;
import org.jspin.datatype.Order;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.StructType;
import org.jspin.datatype.SubarrayType;
import org.jspin.datatype.VectorType;

/**
 * The MPI 4.0 definition of every constructor's type map, written out literally: a derived type's
 * type map is the concatenation, in this order, of copies of old type maps, each displaced by some
 * bytes. Everything is read from the constructors' public accessors; nothing of the engine's
 * lowering or bounds arithmetic is used, except the old types' extents, which the caller supplies.
 */
public final class TypeMapDefinition {
    private TypeMapDefinition() {
    }

    /** One copy of {@code old}'s type map displaced by {@code disp} bytes. */
    public record Copy(long disp, Datatype old) {
    }

    /**
     * @param t        a derived type (not named)
     * @param extentOf the extent of an old type (the unit of element strides and displacements)
     * @return the copies making up {@code t}'s type map, in type-map order
     */
    public static List<Copy> copies(Datatype t, ToLongFunction<Datatype> extentOf) {
        List<Copy> out = new ArrayList<>();
        switch (t) {
            case NamedType n -> throw new IllegalArgumentException("a named type has no copies: " + n);
            case DupType d -> out.add(new Copy(0, d.old()));
            case ResizedType r -> out.add(new Copy(0, r.old()));
            case ContiguousType c -> {
                long ext = extentOf.applyAsLong(c.old());
                for (long i = 0; i < c.count(); i++) {
                    out.add(new Copy(i * ext, c.old()));
                }
            }
            case VectorType v -> {
                long ext = extentOf.applyAsLong(v.old());
                for (long i = 0; i < v.count(); i++) {
                    for (long j = 0; j < v.blocklength(); j++) {
                        out.add(new Copy((i * v.stride() + j) * ext, v.old()));
                    }
                }
            }
            case HVectorType v -> {
                long ext = extentOf.applyAsLong(v.old());
                for (long i = 0; i < v.count(); i++) {
                    for (long j = 0; j < v.blocklength(); j++) {
                        out.add(new Copy(i * v.strideBytes() + j * ext, v.old()));
                    }
                }
            }
            case IndexedType x -> {
                long ext = extentOf.applyAsLong(x.old());
                long[] bls = x.blocklengths();
                long[] disps = x.displacements();
                for (int k = 0; k < bls.length; k++) {
                    for (long j = 0; j < bls[k]; j++) {
                        out.add(new Copy((disps[k] + j) * ext, x.old()));
                    }
                }
            }
            case HIndexedType x -> {
                long ext = extentOf.applyAsLong(x.old());
                long[] bls = x.blocklengths();
                long[] disps = x.displacementsBytes();
                for (int k = 0; k < bls.length; k++) {
                    for (long j = 0; j < bls[k]; j++) {
                        out.add(new Copy(disps[k] + j * ext, x.old()));
                    }
                }
            }
            case IndexedBlockType x -> {
                long ext = extentOf.applyAsLong(x.old());
                for (long d : x.displacements()) {
                    for (long j = 0; j < x.blocklength(); j++) {
                        out.add(new Copy((d + j) * ext, x.old()));
                    }
                }
            }
            case HIndexedBlockType x -> {
                long ext = extentOf.applyAsLong(x.old());
                for (long d : x.displacementsBytes()) {
                    for (long j = 0; j < x.blocklength(); j++) {
                        out.add(new Copy(d + j * ext, x.old()));
                    }
                }
            }
            case StructType s -> {
                long[] bls = s.blocklengths();
                long[] disps = s.displacementsBytes();
                for (int k = 0; k < bls.length; k++) {
                    Datatype m = s.types().get(k);
                    long ext = extentOf.applyAsLong(m);
                    for (long j = 0; j < bls[k]; j++) {
                        out.add(new Copy(disps[k] + j * ext, m));
                    }
                }
            }
            case SubarrayType s -> subarray(s, extentOf.applyAsLong(s.old()), out);
        }
        return out;
    }

    /**
     * The elements of the box, in the array's storage order (the last index varies fastest in C
     * order, the first in Fortran order), each at its byte offset in the whole array.
     */
    private static void subarray(SubarrayType s, long ext, List<Copy> out) {
        long[] sizes = s.sizes();
        long[] subsizes = s.subsizes();
        long[] starts = s.starts();
        int n = sizes.length;
        boolean c = s.order() == Order.C;
        long[] stride = new long[n];
        long unit = ext;
        for (int k = 0; k < n; k++) {
            int dim = c ? n - 1 - k : k;
            stride[dim] = unit;
            unit *= sizes[dim];
        }
        long[] idx = new long[n];
        while (true) {
            long disp = 0;
            for (int d = 0; d < n; d++) {
                disp += (starts[d] + idx[d]) * stride[d];
            }
            out.add(new Copy(disp, s.old()));
            // odometer step, fastest dimension first
            int k = 0;
            for (; k < n; k++) {
                int dim = c ? n - 1 - k : k;
                if (++idx[dim] < subsizes[dim]) {
                    break;
                }
                idx[dim] = 0;
            }
            if (k == n) {
                return;
            }
        }
    }

    /** @return the whole array's extent of a subarray: the product of the sizes times the old extent */
    public static long subarrayExtent(SubarrayType s, long oldExtent) {
        long e = oldExtent;
        for (long size : s.sizes()) {
            e *= size;
        }
        return e;
    }

    /** @return the lb and extent arguments a resized type was made with (from its contents) */
    public static long[] resizedArgs(ResizedType r) {
        return r.contents().addresses();
    }
}
