package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageTiming;
import org.jspin.nic.sim.work.MessageWork;

/**
 * Runs a received message's handlers at the times its {@link ReceiveTimeline} says: the header handler
 * before the first packet, a payload handler per packet, the completion handler after the last one and
 * its DMA writes; at completion it records what the clock said ({@link MessageTiming}), beside the
 * host path's time for the same receive ({@link HostModel}).
 */
public final class TimedScheduler implements HandlerScheduler {
    private final SimConfig config;
    private final MessageShape shape;
    private final HandlerWork header;
    private final ReceiveTimeline timeline;

    /**
     * @param header the header handler's work, charged before the first payload handler
     */
    public TimedScheduler(SimConfig config, MessageShape shape, HandlerWork header) {
        this.config = config;
        this.shape = shape;
        this.header = header;
        // the DMA queue is sampled once per packet time on the link
        long tpkt = Math.round(config.packetBytes() * 8 * 1000.0 / config.timing().get(TimingParam.LINE_RATE));
        this.timeline = new ReceiveTimeline(config.timing(), config.hpus(), tpkt);
    }

    @Override
    public void arrive(int slot, long bytes, int hpu, Runner runner) {
        timeline.arrive(slot, bytes, hpu, header, runner);
    }

    @Override
    public void wasted(long bytes) {
        timeline.wasted(bytes);
    }

    @Override
    public void nack() {
        timeline.nack();
    }

    @Override
    public void drain(Runner runner) {
        timeline.drain(runner);
    }

    @Override
    public void complete(Runner runner, MessageWork totals) {
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
    }
}
