package org.jspin.mpi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.coll.Collectives;
import org.jspin.mpi.op.ReduceOp;
import org.jspin.mpi.topo.CartGrid;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.match.MatchBits;

/**
 * A communicator ({@code MPI_Comm}): a group of ranks and a matching context of its own, so that
 * messages of one communicator never match receives of another. Point-to-point calls check every
 * argument before anything is sent or written and throw {@link MpiException} naming the value;
 * buffers are {@link MemorySegment}s whose first byte is the datatype's origin.
 *
 * <p>Each communicator owns two contexts: one for user messages and one its collectives run on.
 * Behind it: {@code CommArguments} and {@code BlockArguments} check arguments, {@code PointToPoint}
 * talks to the NIC, {@code CollectiveContext} is what the collectives run on, {@code SplitGroup} orders a split.
 */
public class Comm {
    /** {@code MPI_ANY_SOURCE}. */
    public static final int ANY_SOURCE = Ranks.ANY_SOURCE;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = MatchBits.ANY_TAG;
    /** {@code MPI_PROC_NULL}. */
    public static final int PROC_NULL = Ranks.PROC_NULL;
    /** {@code MPI_TAG_UB}. */
    public static final int TAG_UB = MatchBits.TAG_UB;
    /** {@code MPI_UNDEFINED}, as a split color. */
    public static final int UNDEFINED = -32766;

    final Mpi mpi;
    private final int[] worldRanks;
    private final int rank;
    private final int contextId;
    private final CommArguments arguments;
    private final BlockArguments blocks;
    private final PointToPoint pointToPoint;
    private final CollectiveContext collTransport;
    private volatile boolean freed;

    Comm(Mpi mpi, int[] worldRanks, int rank, int contextId) {
        this.mpi = mpi;
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.contextId = contextId;
        this.arguments = new CommArguments(mpi.nic(), worldRanks.length);
        this.blocks = new BlockArguments(arguments);
        this.pointToPoint = new PointToPoint(mpi.nic(), arguments, worldRanks, rank, mpi.tracer());
        this.collTransport = new CollectiveContext(pointToPoint, arguments, contextId + 1, rank);
    }

    /** Makes a communicator over the same group and context as {@code other} (for subclasses). */
    Comm(Comm other) {
        this(other.mpi, other.worldRanks, other.rank, other.contextId);
    }

    /** @return this rank in the communicator */
    public final int rank() {
        return rank;
    }

    /** @return ranks in the communicator */
    public final int size() {
        return worldRanks.length;
    }

    /** @return the world rank of the communicator's rank {@code r} */
    public final int worldRank(int r) {
        arguments.checkRank(r, "rank", false);
        return worldRanks[r];
    }

    final int contextId() {
        return contextId;
    }

    // ---- point-to-point -----------------------------------------------------------------------

    /**
     * {@code MPI_Isend}: starts sending {@code count} elements of the committed {@code type} in
     * {@code buf} to rank {@code dest} with {@code tag}.
     *
     * @throws MpiException ERR_RANK, ERR_TAG, ERR_COUNT, ERR_TYPE or ERR_BUFFER naming the bad argument
     */
    public final Request isend(MemorySegment buf, long count, Datatype type, int dest, int tag) {
        return isend(buf, 0, count, type, dest, tag);
    }

    /**
     * {@code MPI_Isend} with the datatype's origin at byte {@code origin} of {@code buf}, for types
     * whose type map reaches below displacement 0 (a negative lb), which a segment slice cannot.
     *
     * @throws MpiException as {@link #isend(MemorySegment, long, Datatype, int, int)}
     */
    public final Request isend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag) {
        TypeCursor cursor = checkSend(buf, origin, count, type, dest, tag);
        return pointToPoint.send(contextId, buf, count, type, dest, tag, cursor);
    }

    /**
     * {@code MPI_Irecv}: posts a receive of up to {@code count} elements of the committed
     * {@code type} into {@code buf} from {@code source} (or {@link #ANY_SOURCE}) with {@code tag}
     * (or {@link #ANY_TAG}).
     *
     * @throws MpiException ERR_RANK, ERR_TAG, ERR_COUNT, ERR_TYPE or ERR_BUFFER naming the bad argument
     */
    public final Request irecv(MemorySegment buf, long count, Datatype type, int source, int tag) {
        return irecv(buf, 0, count, type, source, tag);
    }

    /**
     * {@code MPI_Irecv} with the datatype's origin at byte {@code origin} of {@code buf} (see
     * {@link #isend(MemorySegment, long, long, Datatype, int, int)}).
     */
    public final Request irecv(MemorySegment buf, long origin, long count, Datatype type, int source, int tag) {
        checkSourceAndTag(source, tag);
        return pointToPoint.receive(contextId, buf, origin, count, type, source, tag);
    }

    /** {@code MPI_Send}: {@link #isend} and wait. */
    public final void send(MemorySegment buf, long count, Datatype type, int dest, int tag) {
        TypeCursor cursor = checkSend(buf, 0, count, type, dest, tag);
        pointToPoint.send(contextId, buf, count, type, dest, tag, cursor, true).waitFor();
    }

    /** {@code MPI_Recv}: {@link #irecv} and wait. */
    public final Status recv(MemorySegment buf, long count, Datatype type, int source, int tag) {
        checkSourceAndTag(source, tag);
        return pointToPoint.receive(contextId, buf, 0, count, type, source, tag, true).waitFor();
    }

    /**
     * {@code MPI_Sendrecv}: sends and receives at once (neither waits for the other to start).
     * Both halves are checked before either starts, so a bad argument on one side posts nothing.
     *
     * @return the receive's status
     */
    public final Status sendrecv(MemorySegment sendBuf, long sendCount, Datatype sendType, int dest, int sendTag,
                                 MemorySegment recvBuf, long recvCount, Datatype recvType, int source, int recvTag) {
        TypeCursor sendCursor = checkSend(sendBuf, 0, sendCount, sendType, dest, sendTag);
        Request r = irecv(recvBuf, recvCount, recvType, source, recvTag);
        Request s;
        try {
            s = pointToPoint.send(contextId, sendBuf, sendCount, sendType, dest, sendTag, sendCursor);
        } catch (RuntimeException e) {
            r.cancel();
            throw e;
        }
        return Request.waitAll(r, s)[0];
    }

    /**
     * {@code MPI_Iprobe}.
     *
     * @return the status of a message that a receive from {@code source} with {@code tag} would
     *         match now, or null if there is none
     */
    public final Status iprobe(int source, int tag) {
        return probe(source, tag, false);
    }

    /** {@code MPI_Probe}: waits for such a message and returns its status. */
    public final Status probe(int source, int tag) {
        return probe(source, tag, true);
    }

    /**
     * {@code MPI_Mprobe}: waits for a matching message and takes it, so that only
     * {@link Message#recv} receives it (no other thread's receive can steal it).
     */
    public final Message mprobe(int source, int tag) {
        return matchedProbe(source, tag, true);
    }

    /** {@code MPI_Improbe}: as {@link #mprobe}, or null if no message matches now. */
    public final Message improbe(int source, int tag) {
        return matchedProbe(source, tag, false);
    }

    private Status probe(int source, int tag, boolean wait) {
        checkSourceAndTag(source, tag);
        if (source == PROC_NULL) {
            return PointToPoint.PROC_NULL_STATUS;
        }
        return pointToPoint.probe(contextId, source, tag, false, wait).await();
    }

    private Message matchedProbe(int source, int tag, boolean wait) {
        checkSourceAndTag(source, tag);
        if (source == PROC_NULL) {
            return Message.noProc(this);
        }
        ProbeWait w = pointToPoint.probe(contextId, source, tag, true, wait);
        Status s = w.await();
        return s == null ? null : new Message(this, w.matched(), s);
    }

    /** Receives a message a matched probe took. */
    final Request receiveMatched(MatchedMessage message, MemorySegment buf, long count, Datatype type) {
        return pointToPoint.receiveMatched(message, buf, count, type);
    }

    /** Checks the arguments of a receive of {@code MPI_MESSAGE_NO_PROC} (which then completes at once). */
    final void checkNoProcReceive(MemorySegment buf, long count, Datatype type) {
        arguments.receiveCursor(buf, 0, count, type);
    }

    // ---- argument checks (the rules in CommArguments) -------------------------------------------

    /** Checks everything about a send from the user context before anything starts; @return its cursor. */
    private TypeCursor checkSend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag) {
        checkLive();
        arguments.checkRank(dest, "destination", true);
        CommArguments.checkTag(tag, false);
        return arguments.sendCursor(buf, origin, count, type);
    }

    /** Checks a live communicator and the source and tag of a receive or probe. */
    private void checkSourceAndTag(int source, int tag) {
        checkLive();
        arguments.checkSource(source);
        CommArguments.checkTag(tag, true);
    }

    /** @throws MpiException ERR_COMM if this communicator was freed, ERR_OTHER after {@link Mpi#close()} */
    final void checkLive() {
        if (freed) {
            throw new MpiException(ErrorClass.ERR_COMM, "communicator " + this + " has been freed");
        }
        if (mpi.finalized()) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + mpi.rank() + " has finalized (Mpi.close or abort); "
                    + this + " can no longer be used");
        }
    }

    // ---- communicators ------------------------------------------------------------------------

    /** {@code MPI_Comm_dup}: the same group with a new context (collective). */
    public final Comm dup() {
        checkLive();
        int id = mpi.contexts().allocate(this);
        return new Comm(mpi, worldRanks, rank, id);
    }

    /**
     * {@code MPI_Comm_split} (collective): ranks with the same {@code color} form a new
     * communicator, ordered by {@code key} and then by rank here.
     *
     * @return the new communicator, or null for color {@link #UNDEFINED}
     * @throws MpiException ERR_ARG for a negative color other than UNDEFINED
     */
    public final Comm split(int color, int key) {
        checkLive();
        if (color < 0 && color != UNDEFINED) {
            throw new MpiException(ErrorClass.ERR_ARG, "split color must be non-negative or UNDEFINED, got " + color);
        }
        int n = size();
        MemorySegment mine = MemorySegment.ofArray(new int[] {color, key});
        int[] all = new int[2 * n];
        allgather(mine, 2, Datatype.INT, MemorySegment.ofArray(all), 2, Datatype.INT);
        int id = mpi.contexts().allocate(this);
        if (color == UNDEFINED) {
            mpi.contexts().release(id);
            return null;
        }
        SplitGroup group = SplitGroup.of(all, color, worldRanks, rank);
        return new Comm(mpi, group.worldRanks(), group.rank(), id);
    }

    /**
     * {@code MPI_Cart_create} (collective): a Cartesian grid over the first {@code dims} product
     * ranks. {@code reorder} is accepted but ranks keep their order (reorder=false semantics).
     *
     * @return the grid communicator, or null on ranks beyond the grid
     * @throws MpiException ERR_DIMS if the grid is larger than the communicator or malformed
     */
    public final CartComm cartCreate(int[] dims, boolean[] periods, boolean reorder) {
        checkLive();
        CartGrid grid = new CartGrid(dims, periods);
        if (grid.size() > size()) {
            throw new MpiException(ErrorClass.ERR_DIMS, "grid " + Arrays.toString(dims) + " has " + grid.size()
                    + " ranks, the communicator only " + size());
        }
        Comm sub = split(rank < grid.size() ? 0 : UNDEFINED, rank);
        return sub == null ? null : new CartComm(sub, grid);
    }

    /**
     * {@code MPI_Comm_free}: this communicator can no longer be used; its context may be reused.
     *
     * @throws MpiException ERR_COMM for the world communicator, or one freed already
     */
    public void free() {
        if (contextId == 0) {
            throw new MpiException(ErrorClass.ERR_COMM, "the world communicator " + this + " cannot be freed");
        }
        synchronized (this) {
            if (freed) {
                throw new MpiException(ErrorClass.ERR_COMM, "communicator " + this + " has been freed already");
            }
            freed = true;
        }
        mpi.contexts().release(contextId);
    }

    /** @return whether {@link #free} has been called */
    public final boolean isFreed() {
        return freed;
    }

    // ---- collectives (algorithms in org.jspin.mpi.coll) -----------------------------------------
    //
    // Each collective checks, on every rank, all the arguments that rank uses (the root, the
    // operator, counts, types and every buffer block it will read or write) before it sends or
    // posts anything, so that a bad argument leaves no message behind and no buffer written.

    /** {@code MPI_Barrier} (dissemination). */
    public final void barrier() {
        checkLive();
        Collectives.barrier(collTransport);
    }

    /**
     * {@code MPI_Bcast} (binomial tree), in the datatype given.
     *
     * @throws MpiException ERR_ROOT for a root outside the communicator; ERR_COUNT, ERR_TYPE or ERR_BUFFER
     */
    public final void bcast(MemorySegment buf, long count, Datatype type, int root) {
        checkLive();
        arguments.checkRoot(root);
        arguments.cursor("broadcast", buf, 0, count, type, rank != root, true);
        Collectives.bcast(collTransport, buf, count, type, root);
    }

    /**
     * {@code MPI_Reduce} (binomial tree, in rank order, so non-commutative operators work):
     * {@code recvBuf} is written on {@code root} only.
     *
     * @throws MpiException ERR_ROOT, ERR_OP for a null operator or a predefined one on a derived type,
     *                      ERR_COUNT, ERR_TYPE or ERR_BUFFER
     */
    public final void reduce(MemorySegment sendBuf, MemorySegment recvBuf, long count, Datatype type, ReduceOp op,
                             int root) {
        checkLive();
        arguments.checkRoot(root);
        CommArguments.checkOp(op, count, type);
        arguments.cursor("reduce send", sendBuf, 0, count, type, false, false);
        if (rank == root) {
            arguments.cursor("reduce receive", recvBuf, 0, count, type, true, false);
        }
        Collectives.reduce(collTransport, sendBuf, recvBuf, count, type, op, root);
    }

    /**
     * {@code MPI_Allreduce} (recursive doubling for commutative operators, else reduce and broadcast).
     *
     * @throws MpiException ERR_OP, ERR_COUNT, ERR_TYPE or ERR_BUFFER
     */
    public final void allreduce(MemorySegment sendBuf, MemorySegment recvBuf, long count, Datatype type, ReduceOp op) {
        checkLive();
        CommArguments.checkOp(op, count, type);
        arguments.cursor("allreduce send", sendBuf, 0, count, type, false, false);
        arguments.cursor("allreduce receive", recvBuf, 0, count, type, true, false);
        Collectives.allreduce(collTransport, sendBuf, recvBuf, count, type, op);
    }

    /** {@code MPI_Gather}: block {@code i} of {@code recvBuf} on {@code root} receives rank i's data. */
    public final void gather(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                             long recvCount, Datatype recvType, int root) {
        checkLive();
        arguments.checkRoot(root);
        arguments.cursor("gather send", sendBuf, 0, sendCount, sendType, false, true);
        if (rank == root) {
            blocks.checkEqual("gather receive", "receive", recvBuf, recvCount, recvType, true);
        }
        Collectives.gather(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
    }

    /**
     * {@code MPI_Gatherv}: rank i's data lands at {@code displs[i]} extents of {@code recvType}.
     *
     * @throws MpiException ERR_ARG if the arrays (on the root) do not have one entry per rank
     */
    public final void gatherv(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                              long[] recvCounts, long[] displs, Datatype recvType, int root) {
        checkLive();
        arguments.checkRoot(root);
        arguments.cursor("gatherv send", sendBuf, 0, sendCount, sendType, false, true);
        if (rank == root) {
            blocks.checkVaried("gatherv receive", recvBuf, recvCounts, displs, recvType, true);
        }
        Collectives.gatherv(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root);
    }

    /** {@code MPI_Scatter}: rank i receives block i of {@code sendBuf} on {@code root}. */
    public final void scatter(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                              long recvCount, Datatype recvType, int root) {
        checkLive();
        arguments.checkRoot(root);
        arguments.cursor("scatter receive", recvBuf, 0, recvCount, recvType, true, true);
        if (rank == root) {
            blocks.checkEqual("scatter send", "send", sendBuf, sendCount, sendType, false);
        }
        Collectives.scatter(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
    }

    /**
     * {@code MPI_Scatterv}: rank i receives {@code sendCounts[i]} elements from {@code displs[i]} extents.
     *
     * @throws MpiException ERR_ARG if the arrays (on the root) do not have one entry per rank
     */
    public final void scatterv(MemorySegment sendBuf, long[] sendCounts, long[] displs, Datatype sendType,
                               MemorySegment recvBuf, long recvCount, Datatype recvType, int root) {
        checkLive();
        arguments.checkRoot(root);
        arguments.cursor("scatterv receive", recvBuf, 0, recvCount, recvType, true, true);
        if (rank == root) {
            blocks.checkVaried("scatterv send", sendBuf, sendCounts, displs, sendType, false);
        }
        Collectives.scatterv(collTransport, sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root);
    }

    /** {@code MPI_Allgather} (ring). */
    public final void allgather(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                                long recvCount, Datatype recvType) {
        checkLive();
        arguments.cursor("allgather send", sendBuf, 0, sendCount, sendType, false, true);
        blocks.checkEqual("allgather receive", "receive", recvBuf, recvCount, recvType, true);
        Collectives.allgather(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    /** {@code MPI_Alltoall} (pairwise exchange). */
    public final void alltoall(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                               long recvCount, Datatype recvType) {
        checkLive();
        blocks.checkEqual("alltoall send", "send", sendBuf, sendCount, sendType, false);
        blocks.checkEqual("alltoall receive", "receive", recvBuf, recvCount, recvType, true);
        Collectives.alltoall(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    /**
     * {@code MPI_Alltoallv}: counts per peer, displacements in extents of the type.
     *
     * @throws MpiException ERR_ARG if an array does not have one entry per rank
     */
    public final void alltoallv(MemorySegment sendBuf, long[] sendCounts, long[] sendDispls, Datatype sendType,
                                MemorySegment recvBuf, long[] recvCounts, long[] recvDispls, Datatype recvType) {
        checkLive();
        blocks.checkVaried("alltoallv send", sendBuf, sendCounts, sendDispls, sendType, false);
        blocks.checkVaried("alltoallv receive", recvBuf, recvCounts, recvDispls, recvType, true);
        Collectives.alltoallv(collTransport, sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts,
                recvDispls, recvType);
    }

    /**
     * {@code MPI_Alltoallw}: counts, byte displacements and a datatype per peer (the FFT2D
     * transpose sends a column type to each peer).
     *
     * @throws MpiException ERR_ARG if an array does not have one entry per rank
     */
    public final void alltoallw(MemorySegment sendBuf, long[] sendCounts, long[] sendDisplsBytes, Datatype[] sendTypes,
                                MemorySegment recvBuf, long[] recvCounts, long[] recvDisplsBytes,
                                Datatype[] recvTypes) {
        checkLive();
        blocks.checkTyped("alltoallw send", sendBuf, sendCounts, sendDisplsBytes, sendTypes, false);
        blocks.checkTyped("alltoallw receive", recvBuf, recvCounts, recvDisplsBytes, recvTypes, true);
        Collectives.alltoallw(collTransport, sendBuf, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvCounts,
                recvDisplsBytes, recvTypes);
    }

    @Override
    public String toString() {
        return "Comm[context " + contextId + ", rank " + rank + " of " + size() + "]";
    }
}
