package org.jspin.nic.sim.timing;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * The clock of one sent message: when each outbound handler runs, when its packet's payload has been
 * gathered from host memory, and when the packet leaves on the link. Times in picoseconds from the
 * moment the send was posted (time 0); the same parameters as the inbound side ({@link ReceiveTimeline}),
 * so every default has the source {@link TimingParam} gives it.
 *
 * <ul>
 * <li><b>Handlers.</b> Each packet has one outbound handler, on the HPU its strategy gives; the handlers
 * are given in packet order, all ready at time 0, and run one after the other on each HPU. Its time is
 * charged as an inbound payload handler's: compute cycles ({@link CostModel}), NIC memory accesses
 * ({@link NicMemoryModel}) and an iovec fetch per refill.</li>
 * <li><b>DMA reads.</b> Its DMA commands read the payload from host memory over PCIe; they are issued
 * evenly over the handler's time through the {@code dma-outstanding} limit ({@link DmaRing}), and their
 * data comes back over PCIe as the inbound writes go out ({@link PcieModel}: {@code pcie-bandwidth},
 * {@code pcie-overhead} and {@code pcie-max-payload} per request, then {@code dma-latency}). PCIe is full
 * duplex, so the reads have their own direction of the link, not the one inbound writes use.</li>
 * <li><b>Packet buffer.</b> A packet holds {@code packet-buffer} space from its handler's start until
 * its last byte has left, taken in packet order (a handler starts no earlier than the one before it took
 * its space); a handler whose packet does not fit waits for earlier packets to leave.</li>
 * <li><b>Link.</b> The packets leave in order at {@code line-rate}: a packet starts once its handler
 * and its DMA reads are done and the packet before it has left. The link latency is not included.</li>
 * </ul>
 *
 * <p>The state the strategy made before the first handler (checkpoints, an iovec list) is the host's
 * when the send is posted and is not charged here. Deterministic: the same handlers give the same times.
 */
public final class SendTimeline {
    private final CostModel cost;
    private final NicMemoryModel memory;
    private final PacketBuffer buffer;
    private final DmaCommands dma;
    private final long[] hpuFree;
    private final double psPerBit;
    private final long iovecFetchPs;

    private long bytesSent;
    private long linkFree;
    private long lastAdmit;
    private long packets;
    private long busy;
    private long dmaStall;
    private long bufferWait;

    /** @param hpus the NIC's HPUs (the handlers' HPUs are below it) */
    public SendTimeline(TimingConfig t, int hpus) {
        if (hpus < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "HPUs must be at least 1, got " + hpus);
        }
        this.cost = new CostModel(t);
        this.memory = new NicMemoryModel(t, cost.psPerCycle());
        this.buffer = new PacketBuffer((long) t.get(TimingParam.PACKET_BUFFER));
        this.dma = new DmaCommands(new DmaRing(hpus, (int) t.get(TimingParam.DMA_OUTSTANDING)), new PcieModel(t, 0));
        this.hpuFree = new long[hpus];
        this.psPerBit = 1000.0 / t.get(TimingParam.LINE_RATE);
        this.iovecFetchPs = Math.round(t.get(TimingParam.IOVEC_FETCH) * 1000);
    }

    /**
     * The next packet in order: {@code bytes} of payload, whose outbound handler ran on {@code hpu} and
     * did {@code w} (its DMA commands are reads of the payload).
     *
     * @return when the packet's last byte has left
     * @throws MpiException ERR_ARG naming an HPU outside the NIC's
     */
    public long packet(int hpu, long bytes, HandlerWork w) {
        if (hpu < 0 || hpu >= hpuFree.length) {
            throw new MpiException(ErrorClass.ERR_ARG, "an outbound handler's HPU must be in [0, " + hpuFree.length
                    + "), got " + hpu);
        }
        long start = admit(Math.max(hpuFree[hpu], lastAdmit), bytes);
        lastAdmit = start;
        long compute = cost.computePs(w);
        long accesses = CostModel.accesses(w);
        long duration = compute + (memory.access(start, hpu, accesses) - start) + w.refills * iovecFetchPs;
        long stall = dma.issue(hpu, start, duration, w); // reads: the same fluid, the other direction
        long gathered = dma.lastDone();
        long end = start + duration + stall;
        hpuFree[hpu] = end;
        busy += end - start;
        dmaStall += stall;
        long leave = Math.max(Math.max(end, gathered), linkFree);
        long before = Math.round(bytesSent * 8 * psPerBit);
        bytesSent += bytes;
        linkFree = leave + Math.round(bytesSent * 8 * psPerBit) - before;
        buffer.releaseAt(linkFree, bytes);
        packets++;
        return linkFree;
    }

    /** Waits from {@code t} until the packet buffer holds {@code bytes} more; @return when it does */
    private long admit(long t, long bytes) {
        buffer.releaseUntil(t);
        long at = t;
        while (!buffer.fits(bytes) && buffer.releasing()) {
            at = Math.max(at, buffer.releaseFirst());
        }
        buffer.take(bytes);
        bufferWait += at - t;
        return at;
    }

    /** @return when the message's last byte has left (0 before any packet) */
    public long lastBytePs() {
        return linkFree;
    }

    /** @return when the last byte would have left at line rate from time 0: the link's own time for the bytes */
    public long lineRatePs() {
        return Math.round(bytesSent * 8 * psPerBit);
    }

    /** @return how much later the last byte left than at line rate from time 0 (never negative) */
    public long delayPs() {
        return linkFree - lineRatePs();
    }

    /** @return packets sent */
    public long packets() {
        return packets;
    }

    /** @return HPU time in outbound handlers, stalls included */
    public long busyPs() {
        return busy;
    }

    /** @return HPU time stalled on the DMA limit */
    public long dmaStallPs() {
        return dmaStall;
    }

    /** @return time handlers waited for room in the packet buffer */
    public long bufferWaitPs() {
        return bufferWait;
    }
}
