package org.jspin.nic.sim.timing;

import java.util.PriorityQueue;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * The clock of one received message: a discrete-event simulation in picoseconds that decides when and
 * on which HPU each handler runs, runs it (the real handler, through {@link Runner}), and charges what
 * it did.
 *
 * <ul>
 * <li><b>Arrival.</b> The sender's NIC puts the message on the link at line rate from time 0; a packet
 * has arrived when its last byte has, after the link latency. Matching takes {@code match-first} for
 * the first packet and {@code match-next} for each later one, one packet at a time.</li>
 * <li><b>Packet buffer.</b> A packet holds its bytes in the NIC's packet buffer from its arrival until
 * its handler's DMA writes complete; a packet that does not fit waits on the link (back-pressure,
 * counted), and so does everything behind it.</li>
 * <li><b>HPUs.</b> The header handler runs first, on the first packet; a payload handler runs on the
 * HPU its strategy fixes ({@code rw-cp}: vHPU j on HPU j mod P) or else on the earliest free HPU
 * (among HPUs free at once, round robin from the last one used); a packet that finds no HPU waits in
 * arrival order. The completion handler runs once every payload handler and DMA write is done.</li>
 * <li><b>A handler's time</b> is its compute cycles ({@link CostModel}), its NIC memory accesses
 * ({@link NicMemoryModel}), and an iovec fetch per refill; its DMA commands are issued evenly over that
 * time into the PCIe queue ({@link PcieModel}); an HPU with {@code dma-outstanding} commands in flight
 * stalls until the oldest completes.</li>
 * </ul>
 *
 * <p>Deterministic: the same configuration, message and seed give the same times.
 */
public final class ReceiveTimeline {
    /** Runs packet {@code slot}'s handler on {@code hpu}, filling {@code work} with what it did. */
    public interface Runner {
        void run(int slot, int hpu, HandlerWork work);
    }

    private final CostModel cost;
    private final NicMemoryModel memory;
    private final PcieModel pcie;
    private final int hpus;
    private final double psPerBit;
    private final long linkLatencyPs;
    private final long matchFirstPs;
    private final long matchNextPs;
    private final long iovecFetchPs;
    private final long bufferBytes;
    private final int outstanding;

    private final long[] hpuFree;
    /** Per HPU, completion times of its DMA commands in flight (a ring of {@code outstanding}). */
    private final long[][] inFlight;
    private final int[] inFlightHead;
    private final int[] inFlightSize;
    private int roundRobin;
    private final HandlerWork work = new HandlerWork();

    /** Packets waiting for an HPU: slot, ready time, fixed HPU (-1: any), bytes; in arrival order. */
    private int[] waitSlot = new int[16];
    private long[] waitReady = new long[16];
    private int[] waitHpu = new int[16];
    private long[] waitBytes = new long[16];
    private int waitHead;
    private int waitSize;

    /** Packet buffer: bytes held, and when each holder lets go. */
    private long buffered;
    private final PriorityQueue<long[]> releases = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));

    private long bytesSent;
    private long linkDelay;
    private long matchFree;
    private boolean started;
    private long gate;
    private long firstArrival = -1;
    private long lastEnd;
    private long dmaDone;
    private long busy;
    private long dmaStall;
    private long memoryStall;
    private long schedulingWait;
    private long backpressureEvents;
    private long backpressurePs;
    private long wastedBytes;
    private long nacks;

    /**
     * @param sampleEveryPs width of the DMA queue occupancy samples (0: none)
     */
    public ReceiveTimeline(TimingConfig t, int hpus, long sampleEveryPs) {
        this.cost = new CostModel(t);
        this.memory = new NicMemoryModel(t, cost.psPerCycle());
        this.pcie = new PcieModel(t, sampleEveryPs);
        this.hpus = hpus;
        this.psPerBit = 1000.0 / t.get(TimingParam.LINE_RATE);
        this.linkLatencyPs = Math.round(t.get(TimingParam.LINK_LATENCY) * 1000);
        this.matchFirstPs = Math.round(t.get(TimingParam.MATCH_FIRST) * 1000);
        this.matchNextPs = Math.round(t.get(TimingParam.MATCH_NEXT) * 1000);
        this.iovecFetchPs = Math.round(t.get(TimingParam.IOVEC_FETCH) * 1000);
        this.bufferBytes = (long) t.get(TimingParam.PACKET_BUFFER);
        this.outstanding = (int) t.get(TimingParam.DMA_OUTSTANDING);
        this.hpuFree = new long[hpus];
        this.inFlight = new long[hpus][outstanding];
        this.inFlightHead = new int[hpus];
        this.inFlightSize = new int[hpus];
    }

    /**
     * The next packet to arrive (in arrival order): {@code bytes} of payload, its handler bound to
     * {@code fixedHpu} or to any HPU (-1). Handlers that can start by its arrival are run first.
     *
     * @param header the header handler's work, run before the first payload handler (read on the first call only)
     */
    public void arrive(int slot, long bytes, int fixedHpu, HandlerWork header, Runner runner) {
        bytesSent += bytes;
        long arrival = linkLatencyPs + linkDelay + Math.round(bytesSent * 8 * psPerBit);
        arrival = admit(arrival, bytes, runner);
        if (firstArrival < 0) {
            firstArrival = arrival;
        }
        long ready = Math.max(arrival, matchFree) + (started ? matchNextPs : matchFirstPs);
        matchFree = ready;
        if (!started) {
            started = true;
            int h = fixedHpu >= 0 ? fixedHpu : 0;
            runHandlerWork(h, ready, header);
            gate = hpuFree[h];
        }
        startUntil(ready, runner);
        enqueue(slot, Math.max(ready, gate), fixedHpu, bytes);
        startUntil(Math.max(ready, gate), runner);
    }

    /**
     * A transmission of {@code bytes} that reached no handler (lost on the link, or a copy the NIC
     * discarded): it took the link's time all the same.
     */
    public void wasted(long bytes) {
        bytesSent += bytes;
        wastedBytes += bytes;
    }

    /**
     * The NIC asked for lost packets again: the sender resends them one link round trip later (the
     * NACK's way there and the packet's way back), so everything after waits that much longer. This
     * charges a loss found by a gap; a lost last packet, which a real sender finds by its
     * retransmission timer, is charged the same, which is optimistic.
     */
    public void nack() {
        linkDelay += 2 * linkLatencyPs;
        nacks++;
    }

    /** @return NACK round trips waited */
    public long nacks() {
        return nacks;
    }

    /** @return bytes of transmissions that reached no handler */
    public long wastedBytes() {
        return wastedBytes;
    }

    /** Starts every waiting handler (at the end of a chunk, while its bytes are still there). */
    public void drain(Runner runner) {
        startUntil(Long.MAX_VALUE, runner);
    }

    /**
     * Runs the completion handler after every payload handler and DMA write.
     *
     * @return when it finished
     */
    public long complete(Runner runner) {
        drain(runner);
        long ready = Math.max(Math.max(lastEnd, dmaDone), gate);
        int h = earliestFree();
        long start = Math.max(ready, hpuFree[h]);
        work.clear();
        long end = start + cost.computePs(work);
        hpuFree[h] = end;
        busy += end - start;
        pcie.finish();
        return end;
    }

    /** Waits on the link until the packet buffer holds {@code bytes} more; @return the arrival time then */
    private long admit(long arrival, long bytes, Runner runner) {
        releaseUntil(arrival);
        if (buffered + bytes <= bufferBytes) {
            buffered += bytes;
            return arrival;
        }
        backpressureEvents++;
        long t = arrival;
        while (buffered + bytes > bufferBytes) {
            if (releases.isEmpty()) {
                if (waitSize == 0) {
                    break; // nothing holds the buffer: a packet larger than all of it goes in alone
                }
                startNext(runner); // a waiting handler must run for anything to be let go
                continue;
            }
            long[] r = releases.poll();
            t = Math.max(t, r[0]);
            buffered -= r[1];
        }
        buffered += bytes;
        backpressurePs += t - arrival;
        linkDelay += t - arrival;
        return t;
    }

    private void releaseUntil(long t) {
        while (!releases.isEmpty() && releases.peek()[0] <= t) {
            buffered -= releases.poll()[1];
        }
    }

    private void enqueue(int slot, long ready, int hpu, long bytes) {
        if (waitSize == waitSlot.length) {
            int n = 2 * waitSize;
            int[] s = new int[n];
            long[] r = new long[n];
            int[] h = new int[n];
            long[] b = new long[n];
            for (int i = 0; i < waitSize; i++) {
                int j = (waitHead + i) % waitSlot.length;
                s[i] = waitSlot[j];
                r[i] = waitReady[j];
                h[i] = waitHpu[j];
                b[i] = waitBytes[j];
            }
            waitSlot = s;
            waitReady = r;
            waitHpu = h;
            waitBytes = b;
            waitHead = 0;
        }
        int j = (waitHead + waitSize) % waitSlot.length;
        waitSlot[j] = slot;
        waitReady[j] = ready;
        waitHpu[j] = hpu;
        waitBytes[j] = bytes;
        waitSize++;
    }

    /** Starts, in time order, every waiting handler whose HPU is free by {@code t}. */
    private void startUntil(long t, Runner runner) {
        while (waitSize > 0 && nextStart() <= t) {
            startNext(runner);
        }
    }

    /** @return when the first waiting packet that can start first would start */
    private long nextStart() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < waitSize; i++) {
            int j = (waitHead + i) % waitSlot.length;
            int h = waitHpu[j];
            long s = Math.max(waitReady[j], h >= 0 ? hpuFree[h] : hpuFree[earliestFree()]);
            best = Math.min(best, s);
            if (h < 0) {
                break; // packets for any HPU start in arrival order
            }
        }
        return best;
    }

    /** Starts the waiting packet that can start first (the head, for packets that take any HPU). */
    private void startNext(Runner runner) {
        int pick = -1;
        long best = Long.MAX_VALUE;
        int hpu = -1;
        for (int i = 0; i < waitSize; i++) {
            int j = (waitHead + i) % waitSlot.length;
            int h = waitHpu[j] >= 0 ? waitHpu[j] : pickFree(waitReady[j]);
            long s = Math.max(waitReady[j], hpuFree[h]);
            if (s < best) {
                best = s;
                pick = i;
                hpu = h;
            }
            if (waitHpu[j] < 0) {
                break;
            }
        }
        int j = (waitHead + pick) % waitSlot.length;
        int slot = waitSlot[j];
        long ready = waitReady[j];
        long bytes = waitBytes[j];
        boolean any = waitHpu[j] < 0;
        removeWaiting(pick);
        if (any) {
            roundRobin = (hpu + 1) % hpus;
        }
        schedulingWait += best - ready;
        work.clear();
        runner.run(slot, hpu, work);
        long doneDma = runHandlerWork(hpu, best, work);
        releases.add(new long[] {doneDma, bytes});
    }

    /** @return the HPU a packet ready at {@code ready} takes: the first free one from the round-robin pointer, else the earliest free */
    private int pickFree(long ready) {
        for (int k = 0; k < hpus; k++) {
            int h = (roundRobin + k) % hpus;
            if (hpuFree[h] <= ready) {
                return h;
            }
        }
        return earliestFree();
    }

    private int earliestFree() {
        int best = 0;
        for (int h = 1; h < hpus; h++) {
            if (hpuFree[h] < hpuFree[best]) {
                best = h;
            }
        }
        return best;
    }

    private void removeWaiting(int i) {
        for (int k = i; k > 0; k--) {
            int to = (waitHead + k) % waitSlot.length;
            int from = (waitHead + k - 1) % waitSlot.length;
            waitSlot[to] = waitSlot[from];
            waitReady[to] = waitReady[from];
            waitHpu[to] = waitHpu[from];
            waitBytes[to] = waitBytes[from];
        }
        waitHead = (waitHead + 1) % waitSlot.length;
        waitSize--;
    }

    /**
     * Charges a handler that did {@code w} on {@code hpu} from {@code start}: compute, memory, iovec
     * fetches, and its DMA commands through the outstanding limit and the PCIe queue.
     *
     * @return when its last DMA command completed (its start if it issued none)
     */
    private long runHandlerWork(int hpu, long start, HandlerWork w) {
        long compute = cost.computePs(w);
        long accesses = CostModel.accesses(w);
        long memEnd = memory.access(start, hpu, accesses);
        memoryStall += (memEnd - start) - accesses * memory.latencyPs();
        long duration = compute + (memEnd - start) + w.refills * iovecFetchPs;
        long stall = 0;
        long last = start;
        long n = w.dmaCommands;
        if (n > 0) {
            long each = w.dmaBytes / n;
            long rest = w.dmaBytes - each * n;
            long[] ring = inFlight[hpu];
            for (long j = 0; j < n; j++) {
                long issue = start + stall + (duration * (j + 1)) / n;
                while (inFlightSize[hpu] > 0 && ring[inFlightHead[hpu]] <= issue) {
                    inFlightHead[hpu] = (inFlightHead[hpu] + 1) % outstanding;
                    inFlightSize[hpu]--;
                }
                if (inFlightSize[hpu] == outstanding) {
                    long oldest = ring[inFlightHead[hpu]];
                    stall += oldest - issue;
                    issue = oldest;
                    inFlightHead[hpu] = (inFlightHead[hpu] + 1) % outstanding;
                    inFlightSize[hpu]--;
                }
                long done = pcie.write(issue, each + (j == n - 1 ? rest : 0));
                ring[(inFlightHead[hpu] + inFlightSize[hpu]) % outstanding] = done;
                inFlightSize[hpu]++;
                last = Math.max(last, done);
            }
        }
        long end = start + duration + stall;
        hpuFree[hpu] = end;
        busy += end - start;
        dmaStall += stall;
        lastEnd = Math.max(lastEnd, end);
        dmaDone = Math.max(dmaDone, last);
        return Math.max(last, end);
    }

    /** @return when the first packet had arrived */
    public long firstArrival() {
        return Math.max(0, firstArrival);
    }

    /** @return HPU time in handlers */
    public long busyPs() {
        return busy;
    }

    /** @return HPU time stalled on the DMA limit */
    public long dmaStallPs() {
        return dmaStall;
    }

    /** @return HPU time waiting on busy NIC memory banks */
    public long memoryStallPs() {
        return memoryStall;
    }

    /** @return time packets waited for an HPU */
    public long schedulingWaitPs() {
        return schedulingWait;
    }

    /** @return packets held back by a full packet buffer */
    public long backpressureEvents() {
        return backpressureEvents;
    }

    /** @return link time lost to back-pressure */
    public long backpressurePs() {
        return backpressurePs;
    }

    /** @return the PCIe write queue */
    public PcieModel pcie() {
        return pcie;
    }
}
