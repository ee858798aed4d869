package org.jspin.mpi;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Signatures;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What a completed operation reports ({@code MPI_Status}): for a receive or probe, the message's
 * source and tag in the communicator and the bytes received; for any operation, its error and
 * whether it was cancelled.
 */
public final class Status {
    /** {@code MPI_UNDEFINED}, as {@link #count} returns it. */
    public static final long UNDEFINED = Signatures.UNDEFINED;

    private final int source;
    private final int tag;
    private final long bytes;
    private final MpiException error;
    private final boolean cancelled;

    Status(int source, int tag, long bytes, MpiException error, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.error = error;
        this.cancelled = cancelled;
    }

    /** @return the sender's rank in the communicator ({@link Ranks#PROC_NULL} for a receive from it) */
    public int source() {
        return source;
    }

    /** @return the message's tag ({@code ANY_TAG} for a receive from PROC_NULL) */
    public int tag() {
        return tag;
    }

    /** @return the error the operation ended with, or null */
    public MpiException error() {
        return error;
    }

    /** @return whether the operation was cancelled ({@code MPI_Test_cancelled}) */
    public boolean cancelled() {
        return cancelled;
    }

    /** @return bytes received (for a probe: the message's length) */
    public long byteCount() {
        return bytes;
    }

    /**
     * {@code MPI_Get_count}: whole elements of {@code type} received.
     *
     * @return the count, or {@link #UNDEFINED} if the bytes are not a whole number of elements
     */
    public long count(Datatype type) {
        checkType(type);
        long size = type.size();
        if (size == 0) {
            return bytes == 0 ? 0 : UNDEFINED;
        }
        return bytes % size == 0 ? bytes / size : UNDEFINED;
    }

    /**
     * {@code MPI_Get_elements}: basic elements received, counting a partly filled element of
     * {@code type} by the basic elements it holds.
     *
     * @return the count, or {@link #UNDEFINED} if the bytes end inside a basic element
     */
    public long elements(Datatype type) {
        checkType(type);
        return Signatures.elementsIn(type, bytes);
    }

    private static void checkType(Datatype type) {
        if (type == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype must not be null");
        }
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + (error != null ? ", error=" + error.getMessage() : "") + "]";
    }
}
