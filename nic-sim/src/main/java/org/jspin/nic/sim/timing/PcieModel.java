package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;

/**
 * The NIC's DMA writes to host memory over PCIe: one first-in first-out write queue. A command of n
 * bytes becomes {@code ceil(n / max-payload)} write requests, each carrying {@code pcie-overhead} bytes
 * of header and framing; the link moves {@code pcie-bandwidth}; a command completes {@code dma-latency}
 * after its last byte left. Commands are served in the order they are booked. The queue's occupancy (commands issued and not yet on the link) is tracked
 * over time: its maximum, its time-weighted mean, and its largest value in each interval of
 * {@code sampleEveryPs} (what the paper's Figs. 14-15 plot).
 */
public final class PcieModel {
    private final double bytesPerPs;
    private final long overhead;
    private final long maxPayload;
    private final long latencyPs;
    private final long sampleEveryPs;
    private long linkFree;
    /** Departure times of the commands still queued, in order (a ring). */
    private long[] departures = new long[64];
    private int head;
    private int size;
    private long lastChange;
    private double area;
    private long max;
    private long firstIssue = -1;
    private long[] samples = new long[0];

    /** @param sampleEveryPs width of the occupancy samples (0: none kept) */
    public PcieModel(TimingConfig t, long sampleEveryPs) {
        this.bytesPerPs = t.get(TimingParam.PCIE_BANDWIDTH) * 1e9 / 1e12;
        this.overhead = (long) t.get(TimingParam.PCIE_OVERHEAD);
        this.maxPayload = (long) t.get(TimingParam.PCIE_MAX_PAYLOAD);
        this.latencyPs = Math.round(t.get(TimingParam.DMA_LATENCY) * 1000);
        this.sampleEveryPs = sampleEveryPs;
    }

    /**
     * Queues a DMA write of {@code bytes} issued at {@code issue}.
     *
     * @return when it completes
     */
    public long write(long issue, long bytes) {
        if (firstIssue < 0) {
            firstIssue = issue;
            lastChange = issue;
        }
        // handlers are simulated one at a time, so a command may be issued a little before one booked
        // earlier: the queue is served in booking order, and its occupancy is counted in time order
        drainUntil(Math.max(issue, lastChange));
        long requests = Math.max(1, (bytes + maxPayload - 1) / maxPayload);
        long wire = bytes + requests * overhead;
        long start = Math.max(issue, linkFree);
        linkFree = start + Math.max(1, Math.round(wire / bytesPerPs));
        push(linkFree);
        return linkFree + latencyPs;
    }

    private void drainUntil(long t) {
        while (size > 0 && departures[head] <= t) {
            change(departures[head]);
            head = (head + 1) % departures.length;
            size--;
        }
        change(t);
    }

    private void change(long t) {
        area += (double) size * (t - lastChange);
        lastChange = t;
    }

    private void push(long departure) {
        if (size == departures.length) {
            long[] d = new long[2 * size];
            for (int i = 0; i < size; i++) {
                d[i] = departures[(head + i) % departures.length];
            }
            departures = d;
            head = 0;
        }
        departures[(head + size) % departures.length] = departure;
        size++;
        max = Math.max(max, size);
        if (sampleEveryPs > 0) {
            int bucket = (int) Math.min(Integer.MAX_VALUE - 8, (lastChange - firstIssue) / sampleEveryPs);
            if (bucket >= samples.length) {
                samples = java.util.Arrays.copyOf(samples, Math.max(bucket + 1, 2 * samples.length));
            }
            samples[bucket] = Math.max(samples[bucket], size);
        }
    }

    /** Lets the queue empty (at the end of a message), so that the mean covers its whole life. */
    public void finish() {
        drainUntil(Long.MAX_VALUE / 4);
        lastChange = Math.max(firstIssue, linkFree);
    }

    /** @return the most commands ever queued */
    public long max() {
        return max;
    }

    /** @return the time-weighted mean of the commands queued, from the first issue to the last departure */
    public double mean() {
        long span = linkFree - Math.max(0, firstIssue);
        return span <= 0 ? 0 : area / span;
    }

    /** @return the largest occupancy in each sample interval from the first issue (a copy) */
    public long[] samples() {
        int n = samples.length;
        while (n > 0 && samples[n - 1] == 0) {
            n--;
        }
        return java.util.Arrays.copyOf(samples, n);
    }
}
