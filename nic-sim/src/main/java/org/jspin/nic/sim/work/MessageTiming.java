package org.jspin.nic.sim.work;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the timing model said of one received message, in simulated picoseconds from the moment its
 * first byte left the sender (so the link latency is included).
 *
 * @param completionPs       when the completion handler finished
 * @param firstArrivalPs     when the first packet had arrived whole
 * @param handlerBusyPs      HPU time spent in handlers (header, payload, completion), stalls included
 * @param dmaStallPs         HPU time stalled on the outstanding-DMA limit
 * @param memoryStallPs      HPU time spent waiting on NIC memory beyond the access latency (bank contention)
 * @param schedulingWaitPs   time packets waited for an HPU after they were ready
 * @param dmaQueueMax        most DMA write requests ever queued for PCIe at once
 * @param dmaQueueMean       time-weighted mean of the requests queued, over the message's lifetime
 * @param backpressureEvents packets the full packet buffer held back on the link
 * @param backpressurePs     link time lost to them
 * @param deltaR             the Δr rw-cp and ro-cp ran with (0 for other strategies)
 * @param nicTrafficBytes    main-memory traffic of the NIC path: lines written whole, read-modify-write of part-lines
 * @param hostTrafficBytes   main-memory traffic the host path would have caused for the same receive
 * @param linkLatencyPs      the link latency included in the times above
 * @param creationPs         what building the message's checkpoints (or iovec list) cost the host, if this
 *                           message built them: the blocks walked at {@code host-region} each (0 when reused)
 * @param bytes              message bytes received
 * @param hostModelPs        the host path's time for the same receive by the host model: link latency, the
 *                           message on the link, then the modelled unpack
 */
public record MessageTiming(long completionPs, long firstArrivalPs, long handlerBusyPs, long dmaStallPs,
                            long memoryStallPs, long schedulingWaitPs, long dmaQueueMax, double dmaQueueMean,
                            long backpressureEvents, long backpressurePs, long deltaR, long nicTrafficBytes,
                            long hostTrafficBytes, long linkLatencyPs, long creationPs, long bytes, long hostModelPs) {
    /**
     * @return message bits over the time from the first byte on the link (after the link latency) until
     *         the completion handler finished, in Gbit/s
     */
    public double gbps() {
        long ps = completionPs - linkLatencyPs;
        return ps <= 0 ? 0 : bytes * 8.0 / (ps / 1000.0);
    }

    /** @return the fields by name, times in ns (the JSON of {@code jspin sim}) */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("completion_ns", completionPs / 1000.0);
        m.put("throughput_gbps", gbps());
        m.put("first_arrival_ns", firstArrivalPs / 1000.0);
        m.put("handler_busy_ns", handlerBusyPs / 1000.0);
        m.put("dma_stall_ns", dmaStallPs / 1000.0);
        m.put("memory_stall_ns", memoryStallPs / 1000.0);
        m.put("scheduling_wait_ns", schedulingWaitPs / 1000.0);
        m.put("dma_queue_max", dmaQueueMax);
        m.put("dma_queue_mean", dmaQueueMean);
        m.put("backpressure_events", backpressureEvents);
        m.put("backpressure_ns", backpressurePs / 1000.0);
        m.put("delta_r", deltaR);
        m.put("nic_traffic_bytes", nicTrafficBytes);
        m.put("host_traffic_bytes", hostTrafficBytes);
        m.put("link_latency_ns", linkLatencyPs / 1000.0);
        m.put("checkpoint_creation_ns", creationPs / 1000.0);
        m.put("host_model_ns", hostModelPs / 1000.0);
        return m;
    }
}
