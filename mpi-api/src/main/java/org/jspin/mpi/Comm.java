package org.jspin.mpi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.coll.Collectives;
import org.jspin.mpi.coll.Transport;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.jspin.mpi.topo.CartGrid;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.Nic;
import org.jspin.nic.Put;
import org.jspin.nic.match.MatchBits;

/**
 * A communicator ({@code MPI_Comm}): a group of ranks and a matching context of its own, so that
 * messages of one communicator never match receives of another. Point-to-point calls check every
 * argument before anything is sent or written and throw {@link MpiException} naming the value;
 * buffers are {@link MemorySegment}s whose first byte is the datatype's origin.
 *
 * <p>Each communicator owns two contexts: one for user messages and one its collectives run on.
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

    private static final Status PROC_NULL_STATUS = new Status(PROC_NULL, ANY_TAG, 0, null, false);

    final Mpi mpi;
    private final Nic nic;
    private final int[] worldRanks;
    private final int rank;
    private final int contextId;
    private final Transport collTransport;
    private volatile boolean freed;

    Comm(Mpi mpi, int[] worldRanks, int rank, int contextId) {
        this.mpi = mpi;
        this.nic = mpi.nic();
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.contextId = contextId;
        this.collTransport = new CollectiveContext();
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
        checkRank(r, "rank", false);
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
        return startSend(contextId, buf, count, type, dest, tag, cursor);
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
        checkLive();
        checkSource(source);
        checkTag(tag, true);
        return startReceive(contextId, buf, origin, count, type, source, tag);
    }

    /** {@code MPI_Send}: {@link #isend} and wait. */
    public final void send(MemorySegment buf, long count, Datatype type, int dest, int tag) {
        isend(buf, count, type, dest, tag).waitFor();
    }

    /** {@code MPI_Recv}: {@link #irecv} and wait. */
    public final Status recv(MemorySegment buf, long count, Datatype type, int source, int tag) {
        return irecv(buf, count, type, source, tag).waitFor();
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
            s = startSend(contextId, sendBuf, sendCount, sendType, dest, sendTag, sendCursor);
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
        checkLive();
        checkSource(source);
        checkTag(tag, true);
        if (source == PROC_NULL) {
            return PROC_NULL_STATUS;
        }
        ProbeWait w = new ProbeWait();
        nic.probe(peerOf(source), MatchBits.select(contextId, source, tag), MatchBits.ignore(source, tag), false,
                wait, w);
        return w.await();
    }

    private Message matchedProbe(int source, int tag, boolean wait) {
        checkLive();
        checkSource(source);
        checkTag(tag, true);
        if (source == PROC_NULL) {
            return Message.noProc(this);
        }
        ProbeWait w = new ProbeWait();
        nic.probe(peerOf(source), MatchBits.select(contextId, source, tag), MatchBits.ignore(source, tag), true,
                wait, w);
        Status s = w.await();
        return s == null ? null : new Message(this, w.matched, s);
    }

    /** Receives a message a matched probe took. */
    final Request receiveMatched(org.jspin.nic.MatchedMessage message, MemorySegment buf, long count, Datatype type) {
        TypeCursor cursor = receiveCursor(buf, 0, count, type);
        Request req = new Request(nic, buf, null);
        MatchEntry entry = new MatchEntry(-1, 0, 0, buf, count, type, cursor, e -> req.complete(receiveStatus(e)));
        nic.receiveMatched(message, entry);
        return req;
    }

    /** Checks the arguments of a receive of {@code MPI_MESSAGE_NO_PROC} (which then completes at once). */
    final void checkNoProcReceive(MemorySegment buf, long count, Datatype type) {
        receiveCursor(buf, 0, count, type);
    }

    // ---- the one path every send and receive takes --------------------------------------------

    /** Checks everything about a send from the user context before anything starts; @return its cursor. */
    private TypeCursor checkSend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag) {
        checkLive();
        checkRank(dest, "destination", true);
        checkTag(tag, false);
        return sendCursor(buf, origin, count, type);
    }

    /** Starts a send whose arguments {@code cursor} was checked from (a PROC_NULL one completes at once). */
    private Request startSend(int context, MemorySegment buf, long count, Datatype type, int dest, int tag,
                              TypeCursor cursor) {
        if (dest == PROC_NULL) {
            return Request.completed(PROC_NULL_STATUS);
        }
        Request req = new Request(nic, buf, null);
        long bits = MatchBits.of(context, rank, tag);
        nic.put(new Put(worldRanks[dest], bits, buf, count, type, cursor,
                e -> req.complete(new Status(dest, tag, e.deliveredBytes(), e.error(), false))));
        return req;
    }

    private Request startReceive(int context, MemorySegment buf, long origin, long count, Datatype type, int source,
                                 int tag) {
        TypeCursor cursor = receiveCursor(buf, origin, count, type);
        if (source == PROC_NULL) {
            return Request.completed(PROC_NULL_STATUS);
        }
        long match = MatchBits.select(context, source, tag);
        long ignore = MatchBits.ignore(source, tag);
        MatchEntry[] entry = new MatchEntry[1]; // the canceller needs the entry, the entry the request
        Request req = new Request(nic, buf, () -> nic.cancel(entry[0]));
        entry[0] = new MatchEntry(peerOf(source), match, ignore, buf, count, type, cursor,
                e -> req.complete(receiveStatus(e)));
        nic.post(entry[0]);
        return req;
    }

    static Status receiveStatus(Event e) {
        if (e.cancelled()) {
            return new Status(ANY_SOURCE, ANY_TAG, 0, null, true);
        }
        return new Status(MatchBits.source(e.matchBits()), MatchBits.tag(e.matchBits()), e.deliveredBytes(),
                e.error(), false);
    }

    private int peerOf(int source) {
        return source == ANY_SOURCE ? -1 : worldRanks[source];
    }

    private TypeCursor sendCursor(MemorySegment buf, long origin, long count, Datatype type) {
        return checkedCursor("send", buf, origin, count, type, false, true);
    }

    private TypeCursor receiveCursor(MemorySegment buf, long origin, long count, Datatype type) {
        return checkedCursor("receive", buf, origin, count, type, true, true);
    }

    /**
     * Checks that {@code count} elements of {@code type} whose origin is byte {@code origin} of
     * {@code buf} can be used: count and committed type, a live buffer that the thread using it can
     * reach ({@code nic}: the progress thread, else this one), writable if {@code write}, and the
     * whole type map inside it.
     *
     * @return a fresh cursor over the buffer
     */
    private TypeCursor checkedCursor(String what, MemorySegment buf, long origin, long count, Datatype type,
                                     boolean write, boolean viaNic) {
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

    private static void checkCountAndType(long count, Datatype type) {
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

    final void checkRank(int r, String what, boolean procNullAllowed) {
        if (procNullAllowed && r == PROC_NULL) {
            return;
        }
        if (r < 0 || r >= worldRanks.length) {
            throw new MpiException(ErrorClass.ERR_RANK, what + " rank must be in [0, " + worldRanks.length + ")"
                    + (procNullAllowed ? " or PROC_NULL" : "") + ", got " + r);
        }
    }

    private void checkSource(int source) {
        if (source != ANY_SOURCE) {
            checkRank(source, "source", true);
        }
    }

    private static void checkTag(int tag, boolean anyAllowed) {
        if (anyAllowed && tag == ANY_TAG) {
            return;
        }
        if (tag < 0) {
            throw new MpiException(ErrorClass.ERR_TAG, "tag must be in [0, " + TAG_UB + "]"
                    + (anyAllowed ? " or ANY_TAG" : "") + ", got " + tag);
        }
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
        Integer[] members = java.util.stream.IntStream.range(0, n).filter(r -> all[2 * r] == color).boxed()
                .sorted((a, b) -> all[2 * a + 1] != all[2 * b + 1] ? Integer.compare(all[2 * a + 1], all[2 * b + 1])
                        : Integer.compare(a, b))
                .toArray(Integer[]::new);
        int[] group = new int[members.length];
        int newRank = -1;
        for (int i = 0; i < members.length; i++) {
            group[i] = worldRanks[members[i]];
            if (members[i] == rank) {
                newRank = i;
            }
        }
        return new Comm(mpi, group, newRank, id);
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
        checkRoot(root);
        checkedCursor("broadcast", buf, 0, count, type, rank != root, true);
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
        checkRoot(root);
        checkOp(op, count, type);
        checkedCursor("reduce send", sendBuf, 0, count, type, false, false);
        if (rank == root) {
            checkedCursor("reduce receive", recvBuf, 0, count, type, true, false);
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
        checkOp(op, count, type);
        checkedCursor("allreduce send", sendBuf, 0, count, type, false, false);
        checkedCursor("allreduce receive", recvBuf, 0, count, type, true, false);
        Collectives.allreduce(collTransport, sendBuf, recvBuf, count, type, op);
    }

    /** {@code MPI_Gather}: block {@code i} of {@code recvBuf} on {@code root} receives rank i's data. */
    public final void gather(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                             long recvCount, Datatype recvType, int root) {
        checkLive();
        checkRoot(root);
        checkedCursor("gather send", sendBuf, 0, sendCount, sendType, false, true);
        if (rank == root) {
            checkedBlocks("gather receive", "receive", recvBuf, recvCount, recvType, true);
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
        checkRoot(root);
        checkedCursor("gatherv send", sendBuf, 0, sendCount, sendType, false, true);
        if (rank == root) {
            checkBlocks("gatherv receive", recvBuf, recvCounts, displs, recvType, true);
        }
        Collectives.gatherv(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root);
    }

    /** {@code MPI_Scatter}: rank i receives block i of {@code sendBuf} on {@code root}. */
    public final void scatter(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                              long recvCount, Datatype recvType, int root) {
        checkLive();
        checkRoot(root);
        checkedCursor("scatter receive", recvBuf, 0, recvCount, recvType, true, true);
        if (rank == root) {
            checkedBlocks("scatter send", "send", sendBuf, sendCount, sendType, false);
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
        checkRoot(root);
        checkedCursor("scatterv receive", recvBuf, 0, recvCount, recvType, true, true);
        if (rank == root) {
            checkBlocks("scatterv send", sendBuf, sendCounts, displs, sendType, false);
        }
        Collectives.scatterv(collTransport, sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root);
    }

    /** {@code MPI_Allgather} (ring). */
    public final void allgather(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                                long recvCount, Datatype recvType) {
        checkLive();
        checkedCursor("allgather send", sendBuf, 0, sendCount, sendType, false, true);
        checkedBlocks("allgather receive", "receive", recvBuf, recvCount, recvType, true);
        Collectives.allgather(collTransport, sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    /** {@code MPI_Alltoall} (pairwise exchange). */
    public final void alltoall(MemorySegment sendBuf, long sendCount, Datatype sendType, MemorySegment recvBuf,
                               long recvCount, Datatype recvType) {
        checkLive();
        checkedBlocks("alltoall send", "send", sendBuf, sendCount, sendType, false);
        checkedBlocks("alltoall receive", "receive", recvBuf, recvCount, recvType, true);
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
        checkBlocks("alltoallv send", sendBuf, sendCounts, sendDispls, sendType, false);
        checkBlocks("alltoallv receive", recvBuf, recvCounts, recvDispls, recvType, true);
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
        checkBlocksW("alltoallw send", sendBuf, sendCounts, sendDisplsBytes, sendTypes, false);
        checkBlocksW("alltoallw receive", recvBuf, recvCounts, recvDisplsBytes, recvTypes, true);
        Collectives.alltoallw(collTransport, sendBuf, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvCounts,
                recvDisplsBytes, recvTypes);
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= worldRanks.length) {
            throw new MpiException(ErrorClass.ERR_ROOT, "root must be in [0, " + worldRanks.length + "), got " + root);
        }
    }

    private static void checkOp(ReduceOp op, long count, Datatype type) {
        if (op == null) {
            throw new MpiException(ErrorClass.ERR_OP, "reduction operator must not be null");
        }
        checkCountAndType(count, type);
        Ops.checkApplicable(op, type);
    }

    /** @return elements in {@code count}-element blocks for every rank, checked for overflow */
    private long blocks(long count, String what) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count must be non-negative, got " + count);
        }
        try {
            return Math.multiplyExact(count, (long) size());
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count " + count + " for each of " + size()
                    + " ranks overflows 64 bits");
        }
    }

    /**
     * Checks {@code count} elements of {@code type} for every rank, one block after another from
     * the start of {@code buf}, as {@link #checkedCursor} checks one block.
     */
    private void checkedBlocks(String what, String side, MemorySegment buf, long count, Datatype type, boolean write) {
        long all = blocks(count, side);
        try {
            checkedCursor(what, buf, 0, all, type, write, true);
        } catch (MpiException e) {
            if (e.errorClass() != ErrorClass.ERR_COUNT) {
                throw e;
            }
            // the cursor's overflow names count x ranks, a number the caller never passed (found by CallFuzzTest)
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count " + count + " for each of " + size()
                    + " ranks: " + e.reason(), e);
        }
    }

    /** Checks one block per rank: {@code counts[i]} elements of {@code type} from {@code displs[i]} extents. */
    private void checkBlocks(String what, MemorySegment buf, long[] counts, long[] displs, Datatype type,
                             boolean write) {
        checkLengths(counts, displs, what);
        checkCountAndType(0, type);
        for (int i = 0; i < counts.length; i++) {
            checkBlockCount(what, i, counts[i]);
            long origin;
            try {
                origin = Math.multiplyExact(displs[i], type.extent());
            } catch (ArithmeticException e) {
                throw new MpiException(ErrorClass.ERR_ARG, what + " displacement " + displs[i] + " for rank " + i
                        + " times the extent " + type.extent() + " overflows 64 bits");
            }
            checkedCursor(what + " (rank " + i + ")", buf, origin, counts[i], type, write, true);
        }
    }

    /** Checks one block per rank: {@code counts[i]} elements of {@code types[i]} from byte {@code displs[i]}. */
    private void checkBlocksW(String what, MemorySegment buf, long[] counts, long[] displs, Datatype[] types,
                              boolean write) {
        checkLengths(counts, displs, what);
        if (types == null || types.length != size()) {
            throw new MpiException(ErrorClass.ERR_ARG, what + " types must have one entry per rank (" + size()
                    + "), got " + (types == null ? "null" : types.length));
        }
        for (int i = 0; i < counts.length; i++) {
            checkBlockCount(what, i, counts[i]);
            if (types[i] == null) {
                throw new MpiException(ErrorClass.ERR_TYPE, what + " type for rank " + i + " must not be null");
            }
            checkedCursor(what + " (rank " + i + ")", buf, displs[i], counts[i], types[i], write, true);
        }
    }

    private static void checkBlockCount(String what, int i, long count) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, what + " count for rank " + i
                    + " must be non-negative, got " + count);
        }
    }

    private void checkLengths(long[] counts, long[] displs, String what) {
        if (counts == null || displs == null || counts.length != size() || displs.length != size()) {
            throw new MpiException(ErrorClass.ERR_ARG, what + " counts and displacements must have one entry per rank ("
                    + size() + "), got " + (counts == null ? "null" : counts.length) + " and "
                    + (displs == null ? "null" : displs.length));
        }
    }

    @Override
    public String toString() {
        return "Comm[context " + contextId + ", rank " + rank + " of " + size() + "]";
    }

    /** The collective context: the context id plus one, which user messages never use. */
    private final class CollectiveContext implements Transport {
        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return worldRanks.length;
        }

        @Override
        public Request isend(MemorySegment buf, long origin, long count, Datatype type, int dest, int tag) {
            TypeCursor cursor = sendCursor(buf, origin, count, type);
            return startSend(contextId + 1, buf, count, type, dest, tag, cursor);
        }

        @Override
        public Request irecv(MemorySegment buf, long origin, long count, Datatype type, int source, int tag) {
            return startReceive(contextId + 1, buf, origin, count, type, source, tag);
        }
    }

    /** Waits for a probe's answer from the progress thread. */
    private final class ProbeWait implements org.jspin.nic.ProbeListener {
        private static final Status NONE = new Status(ANY_SOURCE, ANY_TAG, 0, null, false);
        private final Request done = new Request(nic, null, null);
        private volatile org.jspin.nic.MatchedMessage matched;

        @Override
        public void probed(Event found, org.jspin.nic.MatchedMessage message) {
            matched = message;
            if (found == null) {
                done.complete(NONE);
            } else {
                done.complete(new Status(MatchBits.source(found.matchBits()), MatchBits.tag(found.matchBits()),
                        found.messageBytes(), found.error(), false));
            }
        }

        Status await() {
            Status s = done.waitFor();
            return s == NONE ? null : s;
        }
    }
}
