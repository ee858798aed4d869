package org.jspin.datatype.testing;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.NamedType;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.SubarrayType;

/**
 * Bounds by the "copy" reading: a derived type's lb is the least lb of its copies (each copy at its
 * displacement), its ub the greatest ub, and the true bounds likewise; a type with no copies at all
 * has all-zero bounds; resized and subarray set lb and ub outright. This is how MPICH computes
 * bounds. It differs from the type-map reading ({@link TypeMapOracle}) only in the two cases the
 * golden README leaves out, which is exactly how the tests find those cases.
 */
public final class CopyBounds {
    /** size, lb, ub, true lb and true ub in bytes. */
    public record Bounds(long size, long lb, long ub, long trueLb, long trueUb) {
        public long extent() {
            return ub - lb;
        }

        public long trueExtent() {
            return trueUb - trueLb;
        }
    }

    private final Map<Datatype, Bounds> memo = new IdentityHashMap<>();

    public Bounds of(Datatype t) {
        Bounds b = memo.get(t);
        if (b == null) {
            b = compute(t);
            memo.put(t, b);
        }
        return b;
    }

    public long extent(Datatype t) {
        return of(t).extent();
    }

    private Bounds compute(Datatype t) {
        if (t instanceof NamedType n) {
            long size = Named.specSize(n.name());
            return new Bounds(size, 0, size, 0, size);
        }
        long size = 0;
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        long trueLb = Long.MAX_VALUE;
        long trueUb = Long.MIN_VALUE;
        boolean any = false;
        for (TypeMapDefinition.Copy c : TypeMapDefinition.copies(t, this::extent)) {
            Bounds o = of(c.old());
            any = true;
            size += o.size();
            lb = Math.min(lb, c.disp() + o.lb());
            ub = Math.max(ub, c.disp() + o.ub());
            trueLb = Math.min(trueLb, c.disp() + o.trueLb());
            trueUb = Math.max(trueUb, c.disp() + o.trueUb());
        }
        if (!any) {
            size = lb = ub = trueLb = trueUb = 0;
        }
        if (t instanceof ResizedType r) {
            long[] args = TypeMapDefinition.resizedArgs(r);
            return new Bounds(size, args[0], args[0] + args[1], trueLb, trueUb);
        }
        if (t instanceof SubarrayType s) {
            return new Bounds(size, 0, TypeMapDefinition.subarrayExtent(s, extent(s.old())), trueLb, trueUb);
        }
        return new Bounds(size, lb, ub, trueLb, trueUb);
    }
}
