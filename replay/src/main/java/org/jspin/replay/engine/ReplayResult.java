package org.jspin.replay.engine;

/**
 * What a replay found, rank by rank, in nanoseconds: when each rank's CPU finished (LogGOPSim's
 * per-host time: the latest its CPUs were busy until), how much of that it computed ({@code calc}),
 * spent packing and unpacking ({@code cpu_pack}), and waited (neither computing, packing nor paying
 * LogGOPS's o and O); and how long its NIC ran a datatype's handlers ({@code nic}).
 */
public final class ReplayResult {
    private final String nic;
    private final long[] finish;
    private final long[] compute;
    private final long[] busy;
    private final long[] cpuPack;
    private final long[] nicNs;
    private final MarkLog marks;
    private final long events;

    ReplayResult(String nic, long[] finish, long[] compute, long[] busy, long[] cpuPack, long[] nicNs, MarkLog marks,
                 long events) {
        this.nic = nic;
        this.finish = finish;
        this.compute = compute;
        this.busy = busy;
        this.cpuPack = cpuPack;
        this.nicNs = nicNs;
        this.marks = marks;
        this.events = events;
    }

    /** @return the NIC's name as its {@code MessageCosts} gives it */
    public String nic() { return nic; }

    /** @return the number of ranks */
    public int ranks() { return finish.length; }

    /** @return the latest finish of all ranks, ns */
    public long finishNs() {
        long max = 0;
        for (long f : finish) max = Math.max(max, f);
        return max;
    }

    /** @return rank {@code r}'s finish time, ns */
    public long finishNs(int r) { return finish[r]; }

    /** @return rank {@code r}'s computation ({@code calc}), ns */
    public long computeNs(int r) { return compute[r]; }

    /** @return rank {@code r}'s time until its finish when its CPU was idle, ns */
    public long waitNs(int r) { return Math.max(0, finish[r] - busy[r]); }

    /** @return rank {@code r}'s CPU time packing and unpacking datatypes, ns */
    public long cpuPackNs(int r) { return cpuPack[r]; }

    /** @return rank {@code r}'s NIC time running a datatype's handlers, ns */
    public long nicNs(int r) { return nicNs[r]; }

    /** @return how many marks (iteration boundaries) rank {@code r}'s CPU reached */
    public int marks(int r) { return marks.count(r); }

    /** @return when rank {@code r}'s CPU reached its mark {@code i} (from 0), ns */
    public long markNs(int r, int i) { return marks.time(r, i); }

    /** @return rank {@code r}'s computation until its mark {@code i}, ns */
    public long computeAtMarkNs(int r, int i) { return marks.compute(r, i); }

    /** @return rank {@code r}'s packing and unpacking until its mark {@code i}, ns */
    public long cpuPackAtMarkNs(int r, int i) { return marks.pack(r, i); }

    /** @return rank {@code r}'s NIC handler time of the messages it started or matched until its mark {@code i}, ns */
    public long nicAtMarkNs(int r, int i) { return marks.nic(r, i); }

    /** @return the events the replay processed (operations, messages and retries) */
    public long events() { return events; }
}
