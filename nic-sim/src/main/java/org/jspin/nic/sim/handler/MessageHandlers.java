package org.jspin.nic.sim.handler;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.schedule.LossyLink;
import org.jspin.nic.sim.schedule.PacketOrder;
import org.jspin.nic.sim.strategy.PayloadStrategy;
import org.jspin.nic.sim.timing.HandlerScheduler;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * The sPIN handlers of one message on one NIC. The fabric brings chunks; each is cut into NIC
 * packets of the configured payload, aligned to the message's start (packet k holds bytes
 * {@code [k·size, (k+1)·size)}), which reach the handlers in order or permuted, through a link that
 * may lose and duplicate them ({@link LossyLink}: each packet's handler runs exactly once).
 *
 * <p>Every handler really runs here (real bytes, counted work); when, and on which HPU unless the
 * strategy fixes it, is its {@link HandlerScheduler}'s to say: inbound the timed one, which follows the
 * message's clock; outbound the untimed one, one handler per packet gathering its payload in order, on
 * the HPUs the strategy gives in turn (a {@code SendClock} listening to them times the send side).
 */
public final class MessageHandlers {
    private final SimConfig config;
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
            handOver(slot);
        }

        @Override
        public void wasted(int slot) {
            scheduler.wasted(lengths[slot]);
        }

        @Override
        public void nack() {
            scheduler.nack();
        }
    };
    private final HandlerWork work = new HandlerWork();
    private final HandlerScheduler scheduler;
    private final HandlerKind kind;
    /** Payload handlers bound to the HPU the strategy gives (outbound all are; inbound, if it fixes them). */
    private final boolean placed;
    private final HandlerScheduler.Runner runner = this::run;
    private int[] arrival = new int[0];
    private long[] starts = new long[0];
    private int[] lengths = new int[0];
    private MemorySegment nic;
    private long nicOffset;
    private long chunkOffset;
    private long packetsSeen;

    /**
     * @param setup     the header handler's own work (checkpoint copies, first iovec batch) done while the
     *                  strategy's state was made; counted as the header handler's
     * @param link      the link that brings the inbound packets (unused outbound)
     * @param scheduler when and where the handlers run (inbound the timed one, which charges {@code setup}
     *                  as the header handler's work)
     */
    public MessageHandlers(SimConfig config, PayloadStrategy strategy, Dma dma, boolean inbound,
                           MessageWork totals, WorkListener listener, PacketOrder order, LossyLink link,
                           HandlerWork setup, HandlerScheduler scheduler) {
        this.config = config;
        this.strategy = strategy;
        this.dma = dma;
        this.inbound = inbound;
        this.totals = totals;
        this.listener = listener;
        this.order = order;
        this.link = link;
        this.scheduler = scheduler;
        this.kind = inbound ? HandlerKind.PAYLOAD : HandlerKind.OUTBOUND;
        this.placed = !inbound || strategy.fixedHpu();
        totals.add(setup);
        if (inbound) {
            totals.headerHandlers++;
            listener.handled(HandlerKind.HEADER, -1, 0, 0, 0, setup);
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
                handOver(i);
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
        scheduler.drain(runner); // every handler of this chunk has run before its bytes go back to the fabric
    }

    /** Packet {@code slot}, the next in arrival order, goes to the scheduler. */
    private void handOver(int slot) {
        int hpu = placed ? strategy.hpuFor(packetsSeen, starts[slot], config.hpus()) : -1;
        packetsSeen++;
        scheduler.arrive(slot, lengths[slot], hpu, runner);
    }

    private void run(int slot, int hpu, HandlerWork w) {
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
        scheduler.complete(runner, totals);
        listener.handled(HandlerKind.COMPLETION, -1, 0, 0, 0, work);
    }
}
