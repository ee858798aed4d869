package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.MatchedMessage;

/**
 * A message taken by a matched probe ({@code MPI_Message}): only this handle can receive it, once.
 * A probe of PROC_NULL gives {@code MPI_MESSAGE_NO_PROC}, whose receive completes at once.
 */
public final class Message {
    private final Comm comm;
    private final MatchedMessage matched;
    private final Status status;
    private boolean received;

    Message(Comm comm, MatchedMessage matched, Status status) {
        this.comm = comm;
        this.matched = matched;
        this.status = status;
    }

    static Message noProc(Comm comm) {
        return new Message(comm, null, new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0, null, false));
    }

    /** @return the message's status as probed: source, tag and its length in bytes */
    public Status status() {
        return status;
    }

    /**
     * {@code MPI_Imrecv}: receives the message into {@code count} elements of {@code type}.
     *
     * @throws MpiException ERR_REQUEST if it was received already; ERR_COUNT, ERR_TYPE or ERR_BUFFER
     *                      for a bad argument (the message then stays to be received)
     */
    public synchronized Request irecv(MemorySegment buf, long count, Datatype type) {
        if (received) {
            throw new MpiException(ErrorClass.ERR_REQUEST, "message " + status + " has been received already");
        }
        if (matched == null) {
            comm.checkNoProcReceive(buf, count, type);
            received = true;
            return Request.completed(status);
        }
        Request r = comm.receiveMatched(matched, buf, count, type);
        received = true;
        return r;
    }

    /** {@code MPI_Mrecv}: {@link #irecv} and wait. */
    public Status recv(MemorySegment buf, long count, Datatype type) {
        return irecv(buf, count, type).waitFor();
    }
}
