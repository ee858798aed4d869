package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * The clock of one received message: a discrete-event simulation in picoseconds that decides when and
 * on which HPU each handler runs, runs it (the real handler, through {@link HandlerScheduler.Runner}),
 * and charges what it did.
 *
 * <ul>
 * <li><b>Arrival</b> ({@link Arrivals}). The sender's NIC puts the message on the link at line rate from
 * time 0; a packet has arrived when its last byte has, after the link latency. Matching takes
 * {@code match-first} for the first packet and {@code match-next} for each later one, one packet at a
 * time.</li>
 * <li><b>Packet buffer</b> ({@link PacketBuffer}). A packet holds its bytes in the NIC's packet buffer
 * from its arrival until its handler's DMA writes complete; a packet that does not fit waits on the link
 * (back-pressure, counted), and so does everything behind it.</li>
 * <li><b>HPUs</b> ({@link HpuPool}). The header handler runs first, on the first packet; a payload
 * handler runs on the HPU its strategy fixes ({@code rw-cp}: vHPU j on HPU j mod P) or else on the
 * earliest free HPU (among HPUs free at once, round robin from the last one used); a packet that finds
 * no HPU waits in arrival order. The completion handler runs once every payload handler and DMA write is
 * done.</li>
 * <li><b>A handler's time</b> is its compute cycles ({@link CostModel}), its NIC memory accesses
 * ({@link NicMemoryModel}), and an iovec fetch per refill; its DMA commands are issued evenly over that
 * time into the PCIe queue ({@link PcieModel}); an HPU with {@code dma-outstanding} commands in flight
 * stalls until the oldest completes ({@link DmaRing}).</li>
 * </ul>
 *
 * <p>Deterministic: the same configuration, message and seed give the same times.
 */
public final class ReceiveTimeline {
    private final CostModel cost;
    private final NicMemoryModel memory;
    private final PcieModel pcie;
    private final Arrivals link;
    private final PacketBuffer buffer;
    private final HpuPool hpus;
    private final DmaCommands dma;
    private final long iovecFetchPs;
    private final HandlerWork work = new HandlerWork();

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

    /**
     * @param sampleEveryPs width of the DMA queue occupancy samples (0: none)
     */
    public ReceiveTimeline(TimingConfig t, int hpus, long sampleEveryPs) {
        this.cost = new CostModel(t);
        this.memory = new NicMemoryModel(t, cost.psPerCycle());
        this.pcie = new PcieModel(t, sampleEveryPs);
        this.link = new Arrivals(t);
        this.buffer = new PacketBuffer((long) t.get(TimingParam.PACKET_BUFFER));
        this.hpus = new HpuPool(hpus);
        this.dma = new DmaCommands(new DmaRing(hpus, (int) t.get(TimingParam.DMA_OUTSTANDING)), pcie);
        this.iovecFetchPs = Math.round(t.get(TimingParam.IOVEC_FETCH) * 1000);
    }

    /**
     * The next packet to arrive (in arrival order): {@code bytes} of payload, its handler bound to
     * {@code fixedHpu} or to any HPU (-1). Handlers that can start by its arrival are run first.
     *
     * @param header the header handler's work, run before the first payload handler (read on the first call only)
     */
    public void arrive(int slot, long bytes, int fixedHpu, HandlerWork header, HandlerScheduler.Runner runner) {
        long arrival = admit(link.send(bytes), bytes, runner);
        if (firstArrival < 0) {
            firstArrival = arrival;
        }
        long ready = link.match(arrival);
        if (!started) {
            started = true;
            int h = fixedHpu >= 0 ? fixedHpu : 0;
            runHandlerWork(h, ready, header);
            gate = hpus.freeAt(h);
        }
        startUntil(ready, runner);
        hpus.await(slot, Math.max(ready, gate), fixedHpu, bytes);
        startUntil(Math.max(ready, gate), runner);
    }

    /**
     * A transmission of {@code bytes} that reached no handler (lost on the link, or a copy the NIC
     * discarded): it took the link's time all the same.
     */
    public void wasted(long bytes) {
        link.wasted(bytes);
    }

    /**
     * The NIC asked for lost packets again: the sender resends them one link round trip later (the
     * NACK's way there and the packet's way back), so everything after waits that much longer. This
     * charges a loss found by a gap; a lost last packet, which a real sender finds by its
     * retransmission timer, is charged the same, which is optimistic.
     */
    public void nack() {
        link.nack();
    }

    /** @return NACK round trips waited */
    public long nacks() {
        return link.nacks();
    }

    /** @return bytes of transmissions that reached no handler */
    public long wastedBytes() {
        return link.wastedBytes();
    }

    /** Starts every waiting handler (at the end of a chunk, while its bytes are still there). */
    public void drain(HandlerScheduler.Runner runner) {
        startUntil(Long.MAX_VALUE, runner);
    }

    /**
     * Runs the completion handler after every payload handler and DMA write.
     *
     * @return when it finished
     */
    public long complete(HandlerScheduler.Runner runner) {
        drain(runner);
        long ready = Math.max(Math.max(lastEnd, dmaDone), gate);
        int h = hpus.earliestFree();
        long start = Math.max(ready, hpus.freeAt(h));
        work.clear();
        long end = start + cost.computePs(work);
        hpus.busyUntil(h, end);
        busy += end - start;
        pcie.finish();
        return end;
    }

    /** Waits on the link until the packet buffer holds {@code bytes} more; @return the arrival time then */
    private long admit(long arrival, long bytes, HandlerScheduler.Runner runner) {
        buffer.releaseUntil(arrival);
        if (buffer.fits(bytes)) {
            buffer.take(bytes);
            return arrival;
        }
        backpressureEvents++;
        long t = arrival;
        while (!buffer.fits(bytes)) {
            if (!buffer.releasing()) {
                if (hpus.waiting() == 0) {
                    break; // nothing holds the buffer: a packet larger than all of it goes in alone
                }
                startNext(runner); // a waiting handler must run for anything to be let go
                continue;
            }
            t = Math.max(t, buffer.releaseFirst());
        }
        buffer.take(bytes);
        backpressurePs += t - arrival;
        link.hold(t - arrival);
        return t;
    }

    /** Starts, in time order, every waiting handler whose HPU is free by {@code t}. */
    private void startUntil(long t, HandlerScheduler.Runner runner) {
        while (hpus.waiting() > 0 && hpus.nextStart() <= t) {
            startNext(runner);
        }
    }

    /** Starts the waiting packet that can start first (the head, for packets that take any HPU). */
    private void startNext(HandlerScheduler.Runner runner) {
        hpus.take();
        int slot = hpus.slot();
        int hpu = hpus.hpu();
        long start = hpus.start();
        long bytes = hpus.bytes();
        schedulingWait += start - hpus.ready();
        work.clear();
        runner.run(slot, hpu, work);
        long doneDma = runHandlerWork(hpu, start, work);
        buffer.releaseAt(doneDma, bytes);
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
        long stall = dma.issue(hpu, start, duration, w);
        long last = dma.lastDone();
        long end = start + duration + stall;
        hpus.busyUntil(hpu, end);
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
