package org.jspin.replay.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.cost.MessageType;

/**
 * Builds a {@link Schedule} rank by rank (ranks 0, 1, ... in order, as GOAL's blocks come), checking what
 * GOAL's own reader checks and what it does not: a dependency names operations of the same rank, and
 * dependencies have no cycle. Errors are {@link MpiException}s with {@link ErrorClass#ERR_ARG} naming
 * the source and the line.
 */
public final class ScheduleBuilder {
    private final String source;
    private final int ranks;
    private final int[] rankStart;
    private int currentRank = -1;
    private int ops;
    private byte[] kind = new byte[64];
    private int[] peer = new int[64];
    private int[] tag = new int[64];
    private long[] size = new long[64];
    private byte[] cpu = new byte[64];
    private byte[] nic = new byte[64];
    private int[] type = new int[64];
    private long[] count = new long[64];
    private String[] label = new String[64];
    private int[] line = new int[64];
    private int edges;
    private int[] edgeFrom = new int[64];
    private int[] edgeTo = new int[64];
    private boolean[] edgeStart = new boolean[64];
    private final List<MessageType> types = new ArrayList<>();
    private final Map<MessageType, Integer> typeIndex = new HashMap<>();

    /**
     * @param source what the schedule is read from, named in errors
     * @param ranks  the number of ranks (at least 1)
     */
    public ScheduleBuilder(String source, int ranks) {
        if (ranks < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, source + ": the number of ranks is " + ranks + ", not at least 1");
        }
        this.source = source;
        this.ranks = ranks;
        this.rankStart = new int[ranks + 1];
    }

    /** @return the number of ranks */
    public int ranks() { return ranks; }

    /**
     * Starts the next rank's operations.
     *
     * @param rank   must be one more than the previous rank (0 first)
     * @param atLine the line that starts it, for errors
     */
    public void beginRank(int rank, int atLine) {
        if (rank != currentRank + 1 || rank >= ranks) {
            throw error(atLine, "rank " + rank + " comes where rank " + (currentRank + 1) + " of " + ranks
                    + " was expected (ranks in order, each once)");
        }
        for (int r = currentRank + 1; r <= rank; r++) rankStart[r] = ops;
        currentRank = rank;
    }

    /** @return the rank operations are added to now */
    public int currentRank() { return currentRank; }

    /** @return the global id of the next operation to be added */
    public int nextOp() { return ops; }

    /** Adds a send of {@code bytes} plain bytes; @return its global id */
    public int send(int to, int tag, long bytes, int cpu, int nic, String label, int atLine) {
        if (to < 0 || to >= ranks) throw error(atLine, "send to rank " + to + ", not in 0.." + (ranks - 1));
        return add(Schedule.SEND, to, tag, bytes, cpu, nic, label, atLine);
    }

    /** Adds a receive ({@code from} may be {@link Schedule#ANY}); @return its global id */
    public int recv(int from, int tag, long bytes, int cpu, int nic, String label, int atLine) {
        if (from != Schedule.ANY && (from < 0 || from >= ranks)) {
            throw error(atLine, "receive from rank " + from + ", not in 0.." + (ranks - 1) + " or -1");
        }
        return add(Schedule.RECV, from, tag, bytes, cpu, nic, label, atLine);
    }

    /** Adds a computation of {@code ns} nanoseconds; @return its global id */
    public int calc(long ns, int cpu, String label, int atLine) {
        return add(Schedule.CALC, 0, 0, ns, cpu, 0, label, atLine);
    }

    /** Adds a mark, a zero-length calc at an iteration boundary that a replay times; @return its global id */
    public int mark(int cpu, String label, int atLine) {
        int op = add(Schedule.CALC, 0, 0, 0, cpu, 0, label, atLine);
        type[op] = Schedule.MARK;
        return op;
    }

    /** Gives message operation {@code op} a datatype and count (plain bytes when never called). */
    public void datatype(int op, MessageType messageType, long elements) {
        Integer index = typeIndex.get(messageType);
        if (index == null) {
            index = types.size();
            types.add(messageType);
            typeIndex.put(messageType, index);
        }
        type[op] = index;
        count[op] = elements;
    }

    /** Sets a receive's matched source and tag (a trace's {@code done} line). */
    public void matched(int op, int from, int matchedTag, long bytes) {
        peer[op] = from;
        tag[op] = matchedTag;
        size[op] = bytes;
    }

    /** GOAL's {@code op requires on}: {@code op} starts after {@code on} completed. */
    public void requires(int op, int on, int atLine) { edge(op, on, false, atLine); }

    /** GOAL's {@code op irequires on}: {@code op} starts after {@code on} started. */
    public void irequires(int op, int on, int atLine) { edge(op, on, true, atLine); }

    private void edge(int op, int on, boolean start, int atLine) {
        if (op < rankStart[currentRank] || on < rankStart[currentRank] || op >= ops || on >= ops) {
            throw error(atLine, "a dependency between operations of different ranks (" + op + ", " + on + ")");
        }
        if (op == on) throw error(atLine, label(op) + " depends on itself");
        if (edges == edgeFrom.length) {
            int n = edges * 2;
            edgeFrom = Arrays.copyOf(edgeFrom, n);
            edgeTo = Arrays.copyOf(edgeTo, n);
            edgeStart = Arrays.copyOf(edgeStart, n);
        }
        edgeFrom[edges] = on;
        edgeTo[edges] = op;
        edgeStart[edges] = start;
        edges++;
    }

    private int add(byte k, int p, int t, long bytes, int c, int n, String l, int atLine) {
        if (currentRank < 0) throw error(atLine, "an operation outside any rank");
        if (bytes < 0) throw error(atLine, "a negative size " + bytes);
        if (c < 0 || c > 255 || n < 0 || n > 255) throw error(atLine, "cpu " + c + " or nic " + n + " not in 0..255");
        if (ops == kind.length) grow();
        kind[ops] = k;
        peer[ops] = p;
        tag[ops] = t;
        size[ops] = bytes;
        cpu[ops] = (byte) c;
        nic[ops] = (byte) n;
        type[ops] = Schedule.PLAIN;
        label[ops] = l;
        line[ops] = atLine;
        return ops++;
    }

    private void grow() {
        int n = kind.length * 2;
        kind = Arrays.copyOf(kind, n);
        peer = Arrays.copyOf(peer, n);
        tag = Arrays.copyOf(tag, n);
        size = Arrays.copyOf(size, n);
        cpu = Arrays.copyOf(cpu, n);
        nic = Arrays.copyOf(nic, n);
        type = Arrays.copyOf(type, n);
        count = Arrays.copyOf(count, n);
        label = Arrays.copyOf(label, n);
        line = Arrays.copyOf(line, n);
    }

    private String label(int op) {
        return label[op] != null ? label[op] : "l" + (op - rankStart[currentRank]);
    }

    /**
     * @return the schedule
     * @throws MpiException if ranks are missing or the dependencies have a cycle (naming its operations)
     */
    public Schedule build() {
        if (currentRank != ranks - 1) {
            throw new MpiException(ErrorClass.ERR_ARG, source + ": rank " + (currentRank + 1) + " of " + ranks
                    + " has no schedule");
        }
        rankStart[ranks] = ops;
        int[] depCount = new int[ops];
        int[] doneStart = new int[ops + 1];
        int[] startStart = new int[ops + 1];
        for (int e = 0; e < edges; e++) {
            depCount[edgeTo[e]]++;
            if (edgeStart[e]) startStart[edgeFrom[e] + 1]++; else doneStart[edgeFrom[e] + 1]++;
        }
        for (int i = 0; i < ops; i++) {
            doneStart[i + 1] += doneStart[i];
            startStart[i + 1] += startStart[i];
        }
        int[] doneTo = new int[doneStart[ops]];
        int[] startTo = new int[startStart[ops]];
        int[] doneFill = Arrays.copyOf(doneStart, ops);
        int[] startFill = Arrays.copyOf(startStart, ops);
        for (int e = 0; e < edges; e++) {
            if (edgeStart[e]) startTo[startFill[edgeFrom[e]]++] = edgeTo[e];
            else doneTo[doneFill[edgeFrom[e]]++] = edgeTo[e];
        }
        Schedule schedule = new Schedule(source, ranks, rankStart, Arrays.copyOf(kind, ops), Arrays.copyOf(peer, ops),
                Arrays.copyOf(tag, ops), Arrays.copyOf(size, ops), Arrays.copyOf(cpu, ops), Arrays.copyOf(nic, ops),
                Arrays.copyOf(type, ops), Arrays.copyOf(count, ops), Arrays.copyOf(label, ops), Arrays.copyOf(line, ops),
                depCount, doneStart, doneTo, startStart, startTo, types);
        CycleCheck.check(schedule);
        return schedule;
    }

    private MpiException error(int atLine, String what) {
        return new MpiException(ErrorClass.ERR_ARG, source + ":" + atLine + ": " + what);
    }
}
