package org.jspin.replay.schedule;

import java.util.List;

import org.jspin.replay.cost.MessageType;

/**
 * A job's schedule as GOAL describes it: per rank, operations (send, recv, calc) and the dependencies
 * between them ({@code requires}: after the other completed; {@code irequires}: after it started).
 * Held in primitive arrays indexed by a global operation id (rank by rank, each rank's operations in
 * the order they were defined, as LogGOPSim's txt2bin numbers them), so that a replay of millions of
 * operations allocates nothing per operation. Immutable; built by {@link ScheduleBuilder}.
 */
public final class Schedule {
    /** A send; the kinds' order is LogGOPSim's (sends, then receives, then calcs, when freed together). */
    public static final byte SEND = 1;
    /** A receive. */
    public static final byte RECV = 2;
    /** A local computation of {@code size} nanoseconds. */
    public static final byte CALC = 3;
    /** GOAL's {@code -1}: any source (a receive's peer) or any tag. */
    public static final int ANY = -1;
    /** The type index of plain bytes (no datatype). */
    public static final int PLAIN = -1;
    /** The type index of a mark: a zero-length calc at an iteration boundary (a trace's {@code mark}). */
    public static final int MARK = -2;

    final String source;
    final int ranks;
    final int[] rankStart;
    final byte[] kind;
    final int[] peer;
    final int[] tag;
    final long[] size;
    final byte[] cpu;
    final byte[] nic;
    final int[] type;
    final long[] count;
    final String[] label;
    final int[] line;
    final int[] depCount;
    final int[] doneStart;
    final int[] doneTo;
    final int[] startStart;
    final int[] startTo;
    final List<MessageType> types;

    Schedule(String source, int ranks, int[] rankStart, byte[] kind, int[] peer, int[] tag, long[] size, byte[] cpu,
             byte[] nic, int[] type, long[] count, String[] label, int[] line, int[] depCount, int[] doneStart,
             int[] doneTo, int[] startStart, int[] startTo, List<MessageType> types) {
        this.source = source;
        this.ranks = ranks;
        this.rankStart = rankStart;
        this.kind = kind;
        this.peer = peer;
        this.tag = tag;
        this.size = size;
        this.cpu = cpu;
        this.nic = nic;
        this.type = type;
        this.count = count;
        this.label = label;
        this.line = line;
        this.depCount = depCount;
        this.doneStart = doneStart;
        this.doneTo = doneTo;
        this.startStart = startStart;
        this.startTo = startTo;
        this.types = List.copyOf(types);
    }

    /** @return where the schedule was read from (a file or directory name), for error messages */
    public String source() { return source; }

    /** @return the number of ranks */
    public int ranks() { return ranks; }

    /** @return the number of operations of all ranks */
    public int operations() { return kind.length; }

    /** @return the global id of rank {@code r}'s first operation ({@code r == ranks()} gives the total) */
    public int firstOf(int r) { return rankStart[r]; }

    /** @return the rank that owns operation {@code op} */
    public int rankOf(int op) {
        int lo = 0;
        int hi = ranks - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rankStart[mid] <= op) lo = mid; else hi = mid - 1;
        }
        return lo;
    }

    /** @return {@link #SEND}, {@link #RECV} or {@link #CALC} */
    public byte kind(int op) { return kind[op]; }

    /** @return a send's destination or a receive's source (world rank, or {@link #ANY}); 0 for a calc */
    public int peer(int op) { return peer[op]; }

    /** @return the GOAL tag ({@link #ANY} for any tag) */
    public int tag(int op) { return tag[op]; }

    /** @return bytes of a send or receive; nanoseconds of a calc */
    public long size(int op) { return size[op]; }

    /** @return GOAL's {@code cpu} of the operation */
    public int cpu(int op) { return cpu[op] & 0xff; }

    /** @return GOAL's {@code nic} of the operation */
    public int nic(int op) { return nic[op] & 0xff; }

    /**
     * @return index into {@link #types()} of the message's datatype (or of the one a host's pack calc
     *         packs), {@link #PLAIN}, or {@link #MARK}
     */
    public int type(int op) { return type[op]; }

    /** @return whether {@code op} is a mark: a zero-length calc at an iteration boundary */
    public boolean isMark(int op) { return type[op] == MARK; }

    /** @return elements of the datatype the message moves (0 for plain bytes) */
    public long count(int op) { return count[op]; }

    /** @return the datatypes messages of this schedule name */
    public List<MessageType> types() { return types; }

    /** @return the operation's label as read, or {@code l<offset>} when it had none */
    public String label(int op) {
        String l = label[op];
        return l != null ? l : "l" + (op - rankStart[rankOf(op)]);
    }

    /** @return the line of the source file the operation was read from, 0 when unknown */
    public int line(int op) { return line[op]; }

    /** @return how many operations must complete or start before {@code op} may start */
    public int dependencies(int op) { return depCount[op]; }

    /** @return the number of operations that wait for {@code op} to complete */
    public int completionDependents(int op) { return doneStart[op + 1] - doneStart[op]; }

    /** @return the {@code i}-th operation that waits for {@code op} to complete, in the order declared */
    public int completionDependent(int op, int i) { return doneTo[doneStart[op] + i]; }

    /** @return the number of operations that wait for {@code op} to start */
    public int startDependents(int op) { return startStart[op + 1] - startStart[op]; }

    /** @return the {@code i}-th operation that waits for {@code op} to start, in the order declared */
    public int startDependent(int op, int i) { return startTo[startStart[op] + i]; }

    /** @return one more than the largest {@code cpu} any operation names (LogGOPSim's CPUs per host) */
    public int cpus() {
        int max = 0;
        for (byte c : cpu) max = Math.max(max, c & 0xff);
        return max + 1;
    }

    /** @return one more than the largest {@code nic} any operation names (LogGOPSim's NICs per host) */
    public int nics() {
        int max = 0;
        for (byte n : nic) max = Math.max(max, n & 0xff);
        return max + 1;
    }
}
