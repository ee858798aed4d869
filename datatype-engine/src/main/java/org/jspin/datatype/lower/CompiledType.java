package org.jspin.datatype.lower;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The committed form of a datatype: its normalised node tree with copy kernels chosen, plus the
 * bounds a transfer needs. Immutable; shared by every cursor over the type.
 */
public final class CompiledType {
    private final Datatype type;
    private final Node root;
    private final boolean kernels;
    /**
     * The message tree of the count used last: programs send the same count again and again, and
     * building it each time (a node, a kernel lookup) would be work per message that belongs here.
     */
    private volatile Message lastMessage;

    /** @param run offset of the one contiguous run the message is in type-map order, or -1 ({@link #denseRun}) */
    private record Message(long count, Node node, long run) {
    }

    private CompiledType(Datatype type, Node root, boolean kernels) {
        this.type = type;
        this.root = root;
        this.kernels = kernels;
    }

    /**
     * Normalises and compiles {@code type}. Called by {@link Datatype#commit()}.
     *
     * @return the compiled form
     */
    public static CompiledType compile(Datatype type) {
        Node root = type.size() == 0 ? null : lower(type);
        KernelAssignment.assign(root);
        return new CompiledType(type, root, true);
    }

    /**
     * @throws MpiException ERR_ARG if an offset of the type map does not fit in 64 bits (a
     *                      displacement near the ends of the range, say), rather than the overflow
     */
    private static Node lower(Datatype type) {
        try {
            return Lowering.lower(type);
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "type " + type + " cannot be laid out: an offset of its"
                    + " type map (displacements, strides, extents) overflows 64 bits");
        }
    }

    /**
     * Lowers {@code type} without choosing kernels: enough to flatten it (regions of an uncommitted
     * type), not to move data.
     */
    public static CompiledType layoutOnly(Datatype type) {
        return new CompiledType(type, type.size() == 0 ? null : lower(type), false);
    }

    /** @return the datatype this was compiled from */
    public Datatype type() {
        return type;
    }

    /** @return the normalised tree of one element, or null for a type of size 0 */
    public Node root() {
        return root;
    }

    /**
     * The tree of a whole message of {@code count} elements (element i at {@code i * extent}), with
     * a leaf parent at the root if it is contiguous; null if the message is empty.
     */
    public Node message(long count) {
        Message m = lastMessage(count);
        return m == null ? null : m.node;
    }

    /**
     * The offset, from the origin, of the one contiguous run that holds {@code count} elements in
     * type-map order (so the message moves as one block, with no cursor), or -1 if there is no
     * such run; 0 for an empty message. Known once per count, as the message tree is: the data
     * paths ask it for every message.
     */
    public long denseRun(long count) {
        Message m = lastMessage(count);
        return m == null ? 0 : m.run;
    }

    private Message lastMessage(long count) {
        if (root == null || count == 0) {
            return null;
        }
        Message last = lastMessage;
        if (last != null && last.count == count) {
            return last;
        }
        Node m = buildMessage(count);
        if (kernels && m instanceof VectorNode v) {
            KernelAssignment.assignOne(v); // the message-level vector: a cached lookup of its shape
        }
        RegionIterator first = new RegionIterator(this, count, m);
        long run = first.advance() && first.length() == m.size ? first.offset() : -1;
        last = new Message(count, m, run);
        lastMessage = last; // published whole, kernels set: readers see it complete
        return last;
    }

    private Node buildMessage(long count) {
        try {
            long last = Math.multiplyExact(count - 1, type.extent());
            Math.addExact(last, type.trueUb());
            Math.addExact(last, type.trueLb());
            Math.multiplyExact(count, type.size());
            return Normalizer.leafParent(Normalizer.vector(0, count, type.extent(), root));
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT,
                    "count " + count + " times the extent " + type.extent() + " overflows 64 bits");
        }
    }

    /** @see Datatype#cursor(long, MemorySegment, long) */
    public TypeCursor cursor(long count, MemorySegment buffer, long origin) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "count must be non-negative, got " + count);
        }
        if (!kernels) {
            throw new MpiException(ErrorClass.ERR_TYPE, "a layout-only compilation moves no data: commit the type");
        }
        return new TypeCursor(this, message(count), count, buffer, origin);
    }

    /** @see Datatype#regions(long) */
    public RegionIterator regions(long count) {
        return new RegionIterator(this, count, message(count));
    }

    @Override
    public String toString() {
        return "compiled " + root;
    }
}
