package org.jspin.datatype.lower;

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
import org.jspin.datatype.Order;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.StructType;
import org.jspin.datatype.SubarrayType;
import org.jspin.datatype.VectorType;

/**
 * Lowers a datatype tree to normalised {@link Node}s: each constructor becomes vectors, runs and
 * structs of blocks (the table is the MPI standard's definition of each constructor's type map).
 * A type shared by several parents is lowered once.
 */
final class Lowering {
    private final Map<Datatype, Node> done = new IdentityHashMap<>();

    /** @return the normal form of {@code type}, or null if it holds no bytes */
    static Node lower(Datatype type) {
        return new Lowering().node(type);
    }

    private Node node(Datatype t) {
        if (done.containsKey(t)) {
            return done.get(t);
        }
        Node n = build(t);
        done.put(t, n);
        return n;
    }

    private Node build(Datatype t) {
        return switch (t) {
            case NamedType n -> Normalizer.block(0, n.size());
            case DupType d -> node(d.old());
            case ResizedType r -> node(r.old());
            case ContiguousType c -> Normalizer.vector(0, c.count(), c.old().extent(), node(c.old()));
            case VectorType v -> Normalizer.vector(0, v.count(), v.strideBytes(), block(v.blocklength(), v.old()));
            case HVectorType v -> Normalizer.vector(0, v.count(), v.strideBytes(), block(v.blocklength(), v.old()));
            case IndexedType x -> Normalizer.indexed(x.displacementsBytes(), x.blocklengths(), x.old().extent(),
                    node(x.old()));
            case HIndexedType x -> Normalizer.indexed(x.displacementsBytes(), x.blocklengths(), x.old().extent(),
                    node(x.old()));
            case IndexedBlockType x -> Normalizer.indexed(x.displacementsBytes(), x.blocklengths(), x.old().extent(),
                    node(x.old()));
            case HIndexedBlockType x -> Normalizer.indexed(x.displacementsBytes(), x.blocklengths(), x.old().extent(),
                    node(x.old()));
            case StructType s -> struct(s);
            case SubarrayType s -> subarray(s);
        };
    }

    /** {@code blocklength} consecutive copies of {@code old}. */
    private Node block(long blocklength, Datatype old) {
        return Normalizer.vector(0, blocklength, old.extent(), node(old));
    }

    private Node struct(StructType s) {
        long[] bls = s.blocklengths();
        List<Datatype> types = s.types();
        Node[] members = new Node[bls.length];
        for (int m = 0; m < members.length; m++) {
            members[m] = block(bls[m], types.get(m));
        }
        return Normalizer.struct(s.displacementsBytes(), members);
    }

    private Node subarray(SubarrayType s) {
        long[] sizes = s.sizes();
        long[] subsizes = s.subsizes();
        long[] starts = s.starts();
        long ext = s.old().extent();
        int n = sizes.length;
        Node node = node(s.old());
        long origin = 0;
        long stride = ext;
        for (int k = 0; k < n; k++) { // fastest-varying dimension first
            int dim = s.order() == Order.C ? n - 1 - k : k;
            origin += starts[dim] * stride;
            node = Normalizer.vector(0, subsizes[dim], stride, node);
            stride *= sizes[dim];
        }
        return node == null ? null : node.shift(origin);
    }

}
