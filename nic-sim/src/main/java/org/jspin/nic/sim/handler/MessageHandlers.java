package org.jspin.nic.sim.handler;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.schedule.LossyLink;
import org.jspin.nic.sim.schedule.PacketOrder;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.PayloadStrategy;
import org.jspin.nic.sim.timing.HostModel;
import org.jspin.nic.sim.timing.ReceiveTimeline;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageTiming;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * The sPIN handlers of one message on one NIC. The fabric brings chunks; each is cut into NIC
 * packets of the configured payload, aligned to the message's start (packet k holds bytes
 * {@code [k·size, (k+1)·size)}), which reach the handlers in order or permuted, through a link that
 * may lose and duplicate them ({@link LossyLink}: each packet's handler runs exactly once).
 *
 * <p>Inbound, the message's {@link ReceiveTimeline} decides when and on which HPU each handler runs,
 * in simulated time: the header handler before the first packet, a payload handler per packet, the
 * completion handler after the last one and its DMA writes; every handler really runs (real bytes,
 * counted work) when the timeline starts it. Outbound, one handler per packet gathers its payload in
 * order, on the HPUs in round robin (the send side has no clock yet).
 */
public final class MessageHandlers {
    private final SimConfig config;
    private final MessageShape shape;
    private final PayloadStrategy strategy;
    private final Dma dma;
    private final boolean inbound;
    private final MessageWork totals;
    private final WorkListener listener;
    private final PacketOrder order;
    private final LossyLink link;
    private final LossyLink.Receiver toHandlers = new LossyLink.Receiver() {
        @Override
        public void arrived(int slot) {
            int fixed = strategy.fixedHpu() ? strategy.hpuFor(packetsSeen, starts[slot], config.hpus()) : -1;
            packetsSeen++;
            timeline.arrive(slot, lengths[slot], fixed, setup, runner);
        }

        @Override
        public void wasted(int slot) {
            timeline.wasted(lengths[slot]);
        }

        @Override
        public void nack() {
            timeline.nack();
        }
    };
    private final HandlerWork setup;
    private final HandlerWork work = new HandlerWork();
    private final ReceiveTimeline timeline;
    private final ReceiveTimeline.Runner runner = this::runPayload;
    private int[] arrival = new int[0];
    private long[] starts = new long[0];
    private int[] lengths = new int[0];
    private MemorySegment nic;
    private long nicOffset;
    private long chunkOffset;
    private long packetsSeen;

    /**
     * @param setup the header handler's own work (checkpoint copies, first iovec batch) done while the
     *              strategy's state was made; counted as the header handler's
     * @param link  the link that brings the inbound packets (unused outbound)
     */
    public MessageHandlers(SimConfig config, MessageShape shape, PayloadStrategy strategy, Dma dma, boolean inbound,
                           MessageWork totals, WorkListener listener, PacketOrder order, LossyLink link,
                           HandlerWork setup) {
        this.config = config;
        this.shape = shape;
        this.strategy = strategy;
        this.dma = dma;
        this.inbound = inbound;
        this.totals = totals;
        this.listener = listener;
        this.order = order;
        this.link = link;
        this.setup = setup;
        totals.add(setup);
        if (inbound) {
            totals.headerHandlers++;
            listener.handled(HandlerKind.HEADER, -1, 0, 0, 0, setup);
            long tpkt = Math.round(config.packetBytes() * 8 * 1000.0 / config.timing().get(TimingParam.LINE_RATE));
            this.timeline = new ReceiveTimeline(config.timing(), config.hpus(), tpkt);
        } else {
            this.timeline = null;
        }
    }

    /** @return the strategy running the payload handlers */
    public PayloadStrategy strategy() {
        return strategy;
    }

    /**
     * Runs the handlers of the packets of message bytes {@code [offset, offset + length)}, which lie in
     * {@code nic} from {@code nicOffset} (the packet buffer: read inbound, written outbound).
     */
    public void chunk(long offset, long length, MemorySegment nic, long nicOffset) {
        if (length <= 0) {
            return;
        }
        long size = config.packetBytes();
        long first = offset / size;
        int n = (int) ((offset + length - 1) / size - first + 1);
        if (arrival.length < n) {
            arrival = new int[n];
            starts = new long[n];
            lengths = new int[n];
        }
        if (inbound) {
            order.arrange(arrival, n);
        } else {
            for (int i = 0; i < n; i++) {
                arrival[i] = i; // the sender's NIC reads its packets in order
            }
        }
        for (int i = 0; i < n; i++) {
            long k = first + i;
            starts[i] = Math.max(offset, k * size);
            lengths[i] = (int) (Math.min(offset + length, (k + 1) * size) - starts[i]);
        }
        this.nic = nic;
        this.nicOffset = nicOffset;
        this.chunkOffset = offset;
        if (!inbound) {
            for (int i = 0; i < n; i++) {
                work.clear();
                int hpu = strategy.hpuFor(packetsSeen++, starts[i], config.hpus());
                run(i, hpu, work, HandlerKind.OUTBOUND);
            }
            return;
        }
        try {
            link.carry(arrival, n, first, toHandlers);
        } finally {
            totals.packetsDropped = link.dropped();
            totals.duplicatesDiscarded = link.discarded();
            totals.retransmissions = link.retransmitted();
        }
        timeline.drain(runner); // every handler of this chunk has run before its bytes go back to the fabric
    }

    private void runPayload(int slot, int hpu, HandlerWork w) {
        run(slot, hpu, w, HandlerKind.PAYLOAD);
    }

    private void run(int slot, int hpu, HandlerWork w, HandlerKind kind) {
        long start = starts[slot];
        int len = lengths[slot];
        dma.bind(nic, nicOffset + (start - chunkOffset));
        strategy.payload(hpu, start, len, dma, w);
        totals.add(w);
        totals.packets++;
        if (kind == HandlerKind.PAYLOAD) {
            totals.payloadHandlers++;
        } else {
            totals.outboundHandlers++;
        }
        listener.handled(kind, start / config.packetBytes(), hpu, start, len, w);
    }

    /** The completion handler: every payload handler and its DMA writes are done; the clock stops. */
    public void completion() {
        work.clear();
        totals.completionHandlers++;
        long end = timeline.complete(runner);
        HostModel host = new HostModel(config.timing());
        HostModel.Host hostPath = host.of(shape);
        long linkPs = Math.round(config.timing().get(TimingParam.LINK_LATENCY) * 1000);
        long hostModelPs = linkPs + Math.round(totals.bytes * 8 * 1000.0 / config.timing().get(TimingParam.LINE_RATE))
                + Math.round(hostPath.modelledNs() * 1000);
        totals.timing = new MessageTiming(end, timeline.firstArrival(), timeline.busyPs(), timeline.dmaStallPs(),
                timeline.memoryStallPs(), timeline.schedulingWaitPs(), timeline.pcie().max(), timeline.pcie().mean(),
                timeline.backpressureEvents(), timeline.backpressurePs(), totals.deltaR,
                host.nicTraffic(totals.fullLines, totals.partialLines), hostPath.trafficBytes(), linkPs,
                Math.round(totals.creationBlocks * config.timing().get(TimingParam.HOST_REGION) * 1000), totals.bytes,
                hostModelPs);
        totals.dmaQueueSamples = timeline.pcie().samples();
        listener.handled(HandlerKind.COMPLETION, -1, 0, 0, 0, work);
    }
}
