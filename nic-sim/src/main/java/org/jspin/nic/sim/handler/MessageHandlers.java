package org.jspin.nic.sim.handler;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.schedule.PacketOrder;
import org.jspin.nic.sim.strategy.PayloadStrategy;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * The sPIN handlers of one message on one NIC. The fabric brings chunks; each is cut into NIC
 * packets of the configured payload, aligned to the message's start (packet k holds bytes
 * {@code [k·size, (k+1)·size)}), which reach the handlers in order or permuted; each runs on the HPU
 * its strategy's scheduler picks. Inbound, the header handler runs before the first packet and the
 * completion handler after the last; outbound, one handler per packet gathers its payload.
 */
public final class MessageHandlers {
    private final SimConfig config;
    private final PayloadStrategy strategy;
    private final Dma dma;
    private final boolean inbound;
    private final MessageWork totals;
    private final WorkListener listener;
    private final PacketOrder order;
    private final HandlerWork work = new HandlerWork();
    private int[] arrival = new int[0];
    private long arrived;

    /**
     * @param setup the header handler's own work (checkpoint copies, first iovec batch) done while the
     *              strategy's state was made; counted as the header handler's
     */
    public MessageHandlers(SimConfig config, PayloadStrategy strategy, Dma dma, boolean inbound, MessageWork totals,
                           WorkListener listener, PacketOrder order, HandlerWork setup) {
        this.config = config;
        this.strategy = strategy;
        this.dma = dma;
        this.inbound = inbound;
        this.totals = totals;
        this.listener = listener;
        this.order = order;
        if (inbound) {
            totals.headerHandlers++;
            totals.add(setup);
            listener.handled(HandlerKind.HEADER, -1, 0, 0, 0, setup);
        } else {
            totals.add(setup);
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
        }
        if (inbound) {
            order.arrange(arrival, n);
        } else {
            for (int i = 0; i < n; i++) {
                arrival[i] = i; // the sender's NIC reads its packets in order
            }
        }
        HandlerKind kind = inbound ? HandlerKind.PAYLOAD : HandlerKind.OUTBOUND;
        for (int i = 0; i < n; i++) {
            long k = first + arrival[i];
            long start = Math.max(offset, k * size);
            long end = Math.min(offset + length, (k + 1) * size);
            int len = (int) (end - start);
            int hpu = strategy.hpuFor(arrived++, start, config.hpus());
            dma.bind(nic, nicOffset + (start - offset));
            work.clear();
            strategy.payload(hpu, start, len, dma, work);
            totals.add(work);
            totals.packets++;
            if (inbound) {
                totals.payloadHandlers++;
            } else {
                totals.outboundHandlers++;
            }
            listener.handled(kind, k, hpu, start, len, work);
        }
    }

    /** The completion handler: every payload handler and its DMA writes are done. */
    public void completion() {
        work.clear();
        totals.completionHandlers++;
        listener.handled(HandlerKind.COMPLETION, -1, 0, 0, 0, work);
    }
}
