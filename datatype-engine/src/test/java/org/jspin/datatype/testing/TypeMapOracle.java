package org.jspin.datatype.testing;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.jspin.datatype.ContiguousType;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.DupType;
import org.jspin.datatype.HIndexedBlockType;
import org.jspin.datatype.HIndexedType;
import org.jspin.datatype.HVectorType;
import org.jspin.datatype.IndexedBlockType;
import org.jspin.datatype.IndexedType;
import org.jspin.datatype.NamedType;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.StructType;
import org.jspin.datatype.SubarrayType;
import org.jspin.datatype.VectorType;

/**
 * A naive interpreter of the MPI type map: it expands a type into its data pieces (named-type
 * entries, merged as the layout summary merges them) and its explicit lb/ub markers, copy by copy
 * as {@link TypeMapDefinition} lists them. Bounds follow the standard's marker rule (markers set by
 * resized and subarray are sticky and, where present, decide lb and ub; otherwise the data does;
 * an empty type map has all-zero bounds), without alignment padding.
 *
 * <p>Element strides are the extents of this same reading, so the oracle is the standard's type map
 * throughout, the golden README's two ambiguous cases included (the engine follows the marker
 * rule, as {@code DATATYPE-JSON.md} says).
 */
public final class TypeMapOracle {
    /** One element's type map: its data pieces and its markers (absent: null). */
    public record Element(Pieces data, Long lbMarker, Long ubMarker) {
    }

    /** Expected size and bounds of one element. */
    public record Expected(long size, long lb, long ub, long trueLb, long trueUb) {
        public long extent() {
            return ub - lb;
        }

        public long trueExtent() {
            return trueUb - trueLb;
        }
    }

    private final Map<Datatype, Element> elements = new IdentityHashMap<>();
    private final Map<Datatype, Expected> expected = new IdentityHashMap<>();

    /** @return the merged pieces of {@code count} elements, element i displaced by i extents */
    public Pieces message(Datatype t, long count) {
        Pieces one = element(t).data();
        long ext = extent(t);
        Pieces out = new Pieces();
        for (long i = 0; i < count; i++) {
            out.addAll(one, i * ext);
        }
        return out;
    }

    /** @return the type map of one element at displacement 0 */
    public Element element(Datatype t) {
        Element e = elements.get(t);
        if (e == null) {
            e = expand(t);
            elements.put(t, e);
        }
        return e;
    }

    private Element expand(Datatype t) {
        Pieces data = new Pieces();
        if (t instanceof NamedType n) {
            data.add(0, Named.specSize(n.name()));
            return new Element(data, null, null);
        }
        Long lbm = null;
        Long ubm = null;
        for (TypeMapDefinition.Copy c : TypeMapDefinition.copies(t, this::extent)) {
            Element o = element(c.old());
            data.addAll(o.data(), c.disp());
            if (o.lbMarker() != null) {
                lbm = lbm == null ? c.disp() + o.lbMarker() : Math.min(lbm, c.disp() + o.lbMarker());
            }
            if (o.ubMarker() != null) {
                ubm = ubm == null ? c.disp() + o.ubMarker() : Math.max(ubm, c.disp() + o.ubMarker());
            }
        }
        if (t instanceof ResizedType r) { // new markers replace the old ones
            long[] args = TypeMapDefinition.resizedArgs(r);
            return new Element(data, args[0], args[0] + args[1]);
        }
        if (t instanceof SubarrayType s) { // defined by the standard as a resize to the whole array
            return new Element(data, 0L, TypeMapDefinition.subarrayExtent(s, extent(s.old())));
        }
        return new Element(data, lbm, ubm);
    }

    /** @return the extent of {@code t} by the marker rule */
    public long extent(Datatype t) {
        return expected(t).extent();
    }

    /** @return the bounds of {@code t} by the type-map reading (the standard's marker rule) */
    public Expected expected(Datatype t) {
        Expected x = expected.get(t);
        if (x == null) {
            x = computeExpected(t);
            expected.put(t, x);
        }
        return x;
    }

    private Expected computeExpected(Datatype t) {
        Element e = element(t);
        Pieces d = e.data();
        long trueLb = d.isEmpty() ? 0 : d.minOffset();
        long trueUb = d.isEmpty() ? 0 : d.maxEnd();
        long lb = e.lbMarker() != null ? e.lbMarker() : trueLb;
        long ub = e.ubMarker() != null ? e.ubMarker() : trueUb;
        return new Expected(d.total(), lb, ub, trueLb, trueUb);
    }

    /** @return the direct component types, from the constructors' accessors */
    public static List<Datatype> children(Datatype t) {
        return switch (t) {
            case NamedType n -> List.of();
            case DupType x -> List.of(x.old());
            case ResizedType x -> List.of(x.old());
            case ContiguousType x -> List.of(x.old());
            case VectorType x -> List.of(x.old());
            case HVectorType x -> List.of(x.old());
            case IndexedType x -> List.of(x.old());
            case HIndexedType x -> List.of(x.old());
            case IndexedBlockType x -> List.of(x.old());
            case HIndexedBlockType x -> List.of(x.old());
            case StructType x -> x.types();
            case SubarrayType x -> List.of(x.old());
        };
    }
}
