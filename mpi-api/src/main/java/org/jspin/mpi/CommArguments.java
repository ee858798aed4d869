package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.jspin.nic.Nic;

/**
 * Checks one communicator's arguments before anything is sent, posted or written: ranks, roots,
 * tags, operators, counts, datatypes and buffers, each failure an {@link MpiException} naming the value.
 */
final class CommArguments {
    private final Nic nic;
    private final int size;

    /** @param size ranks in the communicator the arguments address */
    CommArguments(Nic nic, int size) {
        this.nic = nic;
        this.size = size;
    }

    /** @return ranks in the communicator */
    int size() {
        return size;
    }

    void checkRank(int r, String what, boolean procNullAllowed) {
        if (procNullAllowed && r == Comm.PROC_NULL) {
            return;
        }
        if (r < 0 || r >= size) {
            throw new MpiException(ErrorClass.ERR_RANK, what + " rank must be in [0, " + size + ")"
                    + (procNullAllowed ? " or PROC_NULL" : "") + ", got " + r);
        }
    }

    void checkSource(int source) {
        if (source != Comm.ANY_SOURCE) {
            checkRank(source, "source", true);
        }
    }

    static void checkTag(int tag, boolean anyAllowed) {
        if (anyAllowed && tag == Comm.ANY_TAG) {
            return;
        }
        if (tag < 0) {
            throw new MpiException(ErrorClass.ERR_TAG, "tag must be in [0, " + Comm.TAG_UB + "]"
                    + (anyAllowed ? " or ANY_TAG" : "") + ", got " + tag);
        }
    }

    void checkRoot(int root) {
        if (root < 0 || root >= size) {
            throw new MpiException(ErrorClass.ERR_ROOT, "root must be in [0, " + size + "), got " + root);
        }
    }

    static void checkOp(ReduceOp op, long count, Datatype type) {
        if (op == null) {
            throw new MpiException(ErrorClass.ERR_OP, "reduction operator must not be null");
        }
        checkCountAndType(count, type);
        Ops.checkApplicable(op, type);
    }

    static void checkCountAndType(long count, Datatype type) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "count must be non-negative, got " + count);
        }
        if (type == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype must not be null");
        }
        if (!type.isCommitted()) {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype " + abbreviated(type) + " is not committed");
        }
    }

    private static String abbreviated(Datatype type) {
        String s = type.toString();
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }

    TypeCursor sendCursor(MemorySegment buf, long origin, long count, Datatype type) {
        return cursor("send", buf, origin, count, type, false, true);
    }

    TypeCursor receiveCursor(MemorySegment buf, long origin, long count, Datatype type) {
        return cursor("receive", buf, origin, count, type, true, true);
    }

    /**
     * Checks that {@code count} elements of {@code type} whose origin is byte {@code origin} of
     * {@code buf} can be used: count and committed type, a live buffer that the thread using it can
     * reach ({@code viaNic}: the progress thread, else this one), writable if {@code write}, and the
     * whole type map inside it.
     *
     * @return a fresh cursor over the buffer
     */
    TypeCursor cursor(String what, MemorySegment buf, long origin, long count, Datatype type, boolean write,
                      boolean viaNic) {
        checkCountAndType(count, type);
        if (buf == null) {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " buffer must not be null");
        }
        if (!buf.scope().isAlive()) {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " buffer (" + buf.byteSize()
                    + " bytes) belongs to a closed arena");
        }
        if (viaNic ? !nic.accessible(buf) : !buf.isAccessibleBy(Thread.currentThread())) {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " buffer (" + buf.byteSize() + " bytes) is confined to "
                    + (viaNic ? "a thread (Arena.ofConfined); the NIC's progress thread cannot reach it (use a shared, "
                            + "automatic or global arena, or a heap array)"
                            : "another thread than " + Thread.currentThread().getName()));
        }
        if (write && buf.isReadOnly() && type.packSize(count) > 0) {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " buffer (" + buf.byteSize() + " bytes) is read-only");
        }
        try {
            return type.cursor(count, buf, origin);
        } catch (MpiException e) {
            if (e.errorClass() == ErrorClass.ERR_BUFFER) {
                throw new MpiException(ErrorClass.ERR_BUFFER, what + " buffer does not hold the type map: " + e.reason(), e);
            }
            throw e;
        }
    }
}
