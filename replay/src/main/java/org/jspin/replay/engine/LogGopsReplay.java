package org.jspin.replay.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.schedule.PackAsCalc;
import org.jspin.replay.schedule.Schedule;

/**
 * A deterministic discrete-event replay of a {@link Schedule} in the LogGOPS model, rule for rule as
 * LogGOPSim's simulator (LogGOPSim.cpp, with its LogGP network and no noise) so that on plain bytes
 * and whole-nanosecond parameters every rank finishes at the nanosecond LogGOPSim reports; the rules
 * and where each comes from are in docs/replay.md. A {@link MessageCosts} adds what a NIC's handling
 * of a datatype costs: its CPU time (a host's pack and unpack) as calcs before the send and after the
 * receive ({@link PackAsCalc}, exactly as the GOAL export writes them, so LogGOPSim replaying that
 * export agrees), its NIC time inline. One replay per instance; not thread-safe.
 */
public final class LogGopsReplay {
    private static final long OP = 0;
    private static final long MSG = 1L << 32;
    private static final long UNPACK = 2L << 32;
    private static final int PROGRESS_EVENTS = 1 << 21;

    private final Schedule s;
    private final LogGopsParameters p;
    private final String nicName;
    private final MessageCostTable costs;
    private final int ncpu;
    private final int nnic;
    private final int[] opRank;
    private final int[] left;
    private final long[] nexto;
    private final long[] nextgr;
    private final long[] nextgs;
    private final int[] pendNext;
    private final int[] pendHead;
    private final int[] pendTail;
    private final int[] touched = new int[4];
    private int touchedCount;
    private final EventQueue queue = new EventQueue();
    private final MatchQueues posted;
    private final MatchQueues unexpected;
    private final long[] compute;
    private final long[] busy;
    private final long[] pack;
    private final long[] nicBusy;
    private final MarkLog marks;
    private long sequence;
    private long completed;
    private final boolean[] done;

    /**
     * @param schedule   what to replay
     * @param parameters LogGOPS's parameters
     * @param nicCosts   what a datatype costs beyond LogGOPS ({@code PlainBytes} for LogGOPSim's model alone)
     */
    public LogGopsReplay(Schedule schedule, LogGopsParameters parameters, MessageCosts nicCosts) {
        this.s = PackAsCalc.apply(schedule, nicCosts);
        this.p = parameters;
        this.nicName = nicCosts.nic();
        this.costs = MessageCostTable.of(s, new NicTimeOnly(nicCosts));
        int ranks = s.ranks();
        int ops = s.operations();
        this.ncpu = s.cpus();
        this.nnic = s.nics();
        this.opRank = new int[ops];
        for (int r = 0; r < ranks; r++) Arrays.fill(opRank, s.firstOf(r), s.firstOf(r + 1), r);
        this.left = new int[ops];
        for (int op = 0; op < ops; op++) left[op] = s.dependencies(op);
        this.done = new boolean[ops];
        this.nexto = new long[ranks * ncpu];
        this.nextgr = new long[ranks * nnic];
        this.nextgs = new long[ranks * nnic];
        this.pendNext = new int[ops];
        this.pendHead = new int[ranks];
        this.pendTail = new int[ranks];
        Arrays.fill(pendHead, -1);
        this.posted = new MatchQueues(ranks);
        this.unexpected = new MatchQueues(ranks);
        this.compute = new long[ranks];
        this.busy = new long[ranks];
        this.pack = new long[ranks];
        this.nicBusy = new long[ranks];
        this.marks = new MarkLog(ranks);
    }

    /** Replays without progress reports; @see #run(ReplayProgress) */
    public ReplayResult run() { return run(null); }

    /**
     * Replays the schedule.
     *
     * @param progress told every couple of million events, or null
     * @return each rank's times
     * @throws MpiException ERR_ARG when operations never complete (a receive no send matches, a message
     *                      no receive takes), naming the ranks and labels
     */
    public ReplayResult run(ReplayProgress progress) {
        int ranks = s.ranks();
        for (int r = 0; r < ranks; r++) {
            for (int op = s.firstOf(r); op < s.firstOf(r + 1); op++) if (left[op] == 0) pend(op);
            releaseAt(r, true);
        }
        long events = 0;
        while (!queue.isEmpty()) {
            queue.pop();
            long t = queue.time();
            long payload = queue.payload();
            int op = (int) payload;
            long what = payload & ~0xffffffffL;
            if (what == MSG) message(op, t);
            else if (what == UNPACK) unpack(op, t);
            else if (s.kind(op) == Schedule.SEND) send(op, t);
            else if (s.kind(op) == Schedule.RECV) recv(op, t);
            else calc(op, t);
            release();
            if (++events % PROGRESS_EVENTS == 0 && progress != null) progress.update(completed, s.operations(), t);
        }
        if (completed != s.operations() || !posted.isEmpty() || !unexpected.isEmpty()) throw deadlock();
        long[] finish = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            for (int c = 0; c < ncpu; c++) finish[r] = Math.max(finish[r], nexto[r * ncpu + c]);
        }
        return new ReplayResult(nicName, finish, compute, busy, pack, nicBusy, marks, events);
    }

    private void calc(int op, long t) {
        int r = opRank[op];
        int ci = r * ncpu + s.cpu(op);
        if (later(nexto[ci], t, OP | op)) return;
        long size = s.size(op);
        nexto[ci] = t + size;
        busy[r] += size;
        if (PackAsCalc.isPackCalc(s, op)) pack[r] += size;
        else compute[r] += size;
        if (s.isMark(op)) marks.add(r, t, compute[r], pack[r], nicBusy[r]);
        started(op);
        completed(op);
        touch(r);
    }

    private void send(int op, long t) {
        int r = opRank[op];
        int ci = r * ncpu + s.cpu(op);
        int ni = r * nnic + s.nic(op);
        if (later(Math.max(nexto[ci], nextgs[ni]), t, OP | op)) return;
        started(op);
        touch(r);
        long size = s.size(op);
        long packNs = costs == null ? 0 : costs.cpu[op];
        long nicNs = costs == null ? 0 : costs.nic[op];
        long cpuNs = packNs + p.overhead() + p.overheadBytes(size);
        nexto[ci] = t + cpuNs;
        busy[r] += cpuNs;
        pack[r] += packNs;
        nicBusy[r] += nicNs;
        nextgs[ni] = t + packNs + nicNs + p.gap() + p.gapBytes(size);
        queue.push(t + packNs + p.overhead() + nicNs + p.latency(), sequence++, MSG | op);
        if (size <= p.eagerLimit()) completed(op);
    }

    private void recv(int op, long t) {
        int r = opRank[op];
        started(op);
        touch(r);
        int slot = unexpected.take(r, s.peer(op), s.tag(op));
        if (slot < 0) {
            posted.add(r, s.peer(op), s.tag(op), op, 0);
            return;
        }
        int sendOp = unexpected.op(slot);
        int src = unexpected.source(slot);
        long inPlace = unexpected.time(slot);
        if (s.size(op) > p.eagerLimit()) rendezvous(sendOp, src, s.cpu(op), s.nic(op), t);
        matched(op, r, t, inPlace);
    }

    private void message(int sendOp, long t) {
        int dst = s.peer(sendOp);
        int src = opRank[sendOp];
        int ci = dst * ncpu + s.cpu(sendOp);
        int ni = dst * nnic + s.nic(sendOp);
        if (later(Math.max(nexto[ci], nextgr[ni]), t, MSG | sendOp)) return;
        long size = s.size(sendOp);
        long perByteO = p.overheadBytes(size);
        long perByteG = p.gapBytes(size);
        // LogGOPSim compares these as unsigned: an empty message's -G wins over a zero O
        long longer = Long.compareUnsigned(perByteO, perByteG) >= 0 ? perByteO : perByteG;
        nexto[ci] = t + p.overhead() + longer;
        busy[dst] += p.overhead() + longer;
        nextgr[ni] = t + p.gap() + perByteG;
        int slot = posted.take(dst, src, s.tag(sendOp));
        if (slot < 0) {
            unexpected.add(dst, src, s.tag(sendOp), sendOp, nexto[ci]);
            return;
        }
        int recvOp = posted.op(slot);
        if (size > p.eagerLimit()) rendezvous(sendOp, src, s.cpu(sendOp), s.nic(sendOp), t);
        touch(dst);
        matched(recvOp, dst, t, nexto[ci]);
    }

    /** The receiver matched a rendezvous send at {@code t}: the send completes, its host's clocks move to t. */
    private void rendezvous(int sendOp, int src, int cpu, int nic, long t) {
        completed(sendOp);
        touch(src);
        int ci = src * ncpu + cpu;
        int ni = src * nnic + nic;
        if (nexto[ci] < t) nexto[ci] = t;
        if (nextgs[ni] < t) nextgs[ni] = t;
    }

    /** A receive matched its message; LogGOPS's part of it is over at {@code inPlace}. */
    private void matched(int recvOp, int r, long t, long inPlace) {
        if (costs == null || (costs.cpu[recvOp] == 0 && costs.nic[recvOp] == 0)) {
            completed(recvOp);
            return;
        }
        nicBusy[r] += costs.nic[recvOp];
        queue.push(Math.max(t, inPlace + costs.nic[recvOp]), sequence++, UNPACK | recvOp);
    }

    private void unpack(int recvOp, long t) {
        int r = opRank[recvOp];
        int ci = r * ncpu + s.cpu(recvOp);
        if (later(nexto[ci], t, UNPACK | recvOp)) return;
        long ns = costs.cpu[recvOp];
        nexto[ci] = t + ns;
        busy[r] += ns;
        pack[r] += ns;
        completed(recvOp);
        touch(r);
    }

    /** The event's CPU or NIC is busy until {@code free}: it is queued again then, keeping its place among equals. */
    private boolean later(long free, long t, long payload) {
        if (free <= t) return false;
        queue.push(free, queue.sequence(), payload);
        return true;
    }

    private void started(int op) {
        for (int i = 0, n = s.startDependents(op); i < n; i++) {
            int d = s.startDependent(op, i);
            if (--left[d] == 0) pend(d);
        }
    }

    private void completed(int op) {
        done[op] = true;
        completed++;
        for (int i = 0, n = s.completionDependents(op); i < n; i++) {
            int d = s.completionDependent(op, i);
            if (--left[d] == 0) pend(d);
        }
    }

    private void pend(int op) {
        int r = opRank[op];
        pendNext[op] = -1;
        if (pendHead[r] < 0) pendHead[r] = op; else pendNext[pendTail[r]] = op;
        pendTail[r] = op;
    }

    private void touch(int r) {
        for (int i = 0; i < touchedCount; i++) if (touched[i] == r) return;
        touched[touchedCount++] = r;
    }

    /** Queues what the event freed, host by host in rank order, as LogGOPSim's check_hosts loop. */
    private void release() {
        for (int i = 1; i < touchedCount; i++) {
            int v = touched[i];
            int j = i - 1;
            while (j >= 0 && touched[j] > v) {
                touched[j + 1] = touched[j];
                j--;
            }
            touched[j + 1] = v;
        }
        for (int i = 0; i < touchedCount; i++) releaseAt(touched[i], false);
        touchedCount = 0;
    }

    /** Queues rank r's freed operations: sends, then receives, then calcs, each in the order freed. */
    private void releaseAt(int r, boolean atZero) {
        if (pendHead[r] < 0) return;
        for (byte kind = Schedule.SEND; kind <= Schedule.CALC; kind++) {
            for (int op = pendHead[r]; op >= 0; op = pendNext[op]) {
                if (s.kind(op) != kind) continue;
                int ci = r * ncpu + s.cpu(op);
                long at = atZero ? 0 : kind == Schedule.SEND ? Math.max(nexto[ci], nextgs[r * nnic + s.nic(op)]) : nexto[ci];
                queue.push(at, sequence++, OP | op);
            }
        }
        pendHead[r] = -1;
    }

    private MpiException deadlock() {
        List<String> why = new ArrayList<>();
        for (int r = 0; r < s.ranks() && why.size() < 12; r++) {
            for (int op : posted.left(r)) {
                why.add("rank " + r + "'s recv " + s.label(op) + where(op) + " from " + peer(s.peer(op)) + " tag "
                        + tag(s.tag(op)) + " is never matched");
            }
            for (int op : unexpected.left(r)) {
                why.add("rank " + opRank[op] + "'s send " + s.label(op) + where(op) + " to rank " + r + " tag "
                        + tag(s.tag(op)) + " is never received");
            }
        }
        long never = s.operations() - completed;
        int blocked = 0;
        for (int op = 0; op < s.operations() && blocked < 4; op++) {
            if (!done[op] && left[op] > 0) {
                if (blocked++ == 0) why.add("blocked behind them: ");
                why.set(why.size() - 1, why.getLast() + (blocked > 1 ? ", " : "") + "rank " + opRank[op] + "'s "
                        + s.label(op) + where(op));
            }
        }
        return new MpiException(ErrorClass.ERR_ARG, s.source() + ": deadlock: " + never
                + " operations never complete; " + String.join("; ", why));
    }

    private String where(int op) { return s.line(op) > 0 ? " (line " + s.line(op) + ")" : ""; }

    private static String peer(int rank) { return rank == Schedule.ANY ? "any source" : "rank " + rank; }

    private static String tag(int tag) { return tag == Schedule.ANY ? "any" : Integer.toString(tag); }
}
