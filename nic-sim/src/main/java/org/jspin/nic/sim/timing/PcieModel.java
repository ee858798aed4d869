package org.jspin.nic.sim.timing;

import java.util.Arrays;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;

/**
 * The NIC's DMA writes to host memory over PCIe. A command of n bytes becomes
 * {@code ceil(n / max-payload)} write requests, each carrying {@code pcie-overhead} bytes of header and
 * framing, and completes {@code dma-latency} after its last byte is on the link.
 *
 * <p>The link is shared as a fluid in slots of {@link #SLOT_PS}: each slot carries
 * {@code pcie-bandwidth × slot} bytes, and a request takes what is left of the slots from its issue on.
 * Handlers are simulated one at a time, so commands are booked out of time order (a handler started
 * later may issue before another's last command); a first-in first-out link in booking order would
 * make the earlier command wait behind later ones, which the fluid does not. The queue's occupancy
 * (commands issued and not complete) is counted per slot: its maximum, its mean over the message's
 * DMA activity, and its largest value per sample interval (the paper's Figs. 14-15).
 */
public final class PcieModel {
    /** Width of a link slot, in ps. */
    public static final long SLOT_PS = 5_000;

    private final double slotBytes;
    private final long overhead;
    private final long maxPayload;
    private final long latencyPs;
    private final long sampleEveryPs;
    private double[] used = new double[1024];
    private int[] occupancyDelta = new int[1024];
    private long firstSlot = -1;
    private long lastSlot;
    private boolean finished;
    private long max;
    private double mean;
    private long[] samples = new long[0];

    /** @param sampleEveryPs width of the occupancy samples (0: none kept) */
    public PcieModel(TimingConfig t, long sampleEveryPs) {
        this.slotBytes = t.get(TimingParam.PCIE_BANDWIDTH) * 1e9 / 1e12 * SLOT_PS;
        this.overhead = (long) t.get(TimingParam.PCIE_OVERHEAD);
        this.maxPayload = (long) t.get(TimingParam.PCIE_MAX_PAYLOAD);
        this.latencyPs = Math.round(t.get(TimingParam.DMA_LATENCY) * 1000);
        this.sampleEveryPs = sampleEveryPs;
    }

    /**
     * Books a DMA write of {@code bytes} issued at {@code issue}.
     *
     * @return when it completes
     */
    public long write(long issue, long bytes) {
        long requests = Math.max(1, (bytes + maxPayload - 1) / maxPayload);
        double left = bytes + requests * overhead;
        long slot = issue / SLOT_PS;
        if (firstSlot < 0 || slot < firstSlot) {
            firstSlot = firstSlot < 0 ? slot : Math.min(firstSlot, slot);
        }
        double at = issue - slot * (double) SLOT_PS; // the fluid starts where the command was issued
        long end;
        while (true) {
            ensure(slot);
            int i = (int) slot;
            double room = slotBytes - used[i];
            double startFrac = Math.max(at / SLOT_PS, used[i] / slotBytes);
            room = Math.min(room, slotBytes * (1 - startFrac));
            if (room >= left) {
                used[i] += left;
                double frac = Math.max(startFrac, 0) + left / slotBytes;
                end = slot * SLOT_PS + Math.round(Math.min(1, frac) * SLOT_PS);
                break;
            }
            if (room > 0) {
                used[i] += room;
                left -= room;
            }
            slot++;
            at = 0;
        }
        long done = end + latencyPs;
        // in flight from its issue's slot up to (not including) its completion's, and at least one slot
        long issueSlot = issue / SLOT_PS;
        long doneSlot = Math.max(done / SLOT_PS, issueSlot + 1);
        ensure(doneSlot);
        occupancyDelta[(int) issueSlot]++;
        occupancyDelta[(int) doneSlot]--;
        lastSlot = Math.max(lastSlot, doneSlot);
        return done;
    }

    private void ensure(long slot) {
        if (slot >= Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("simulated DMA activity beyond " + slot * SLOT_PS + " ps");
        }
        if (slot >= used.length) {
            int n = (int) Math.max(slot + 1, 2L * used.length);
            used = Arrays.copyOf(used, n);
            occupancyDelta = Arrays.copyOf(occupancyDelta, n);
        }
    }

    /** Closes the books: the occupancy statistics from here on describe the whole message. */
    public void finish() {
        if (finished || firstSlot < 0) {
            finished = true;
            return;
        }
        finished = true;
        long occupancy = 0;
        double sum = 0;
        int perSample = sampleEveryPs > 0 ? (int) Math.max(1, sampleEveryPs / SLOT_PS) : 0;
        samples = perSample > 0 ? new long[(int) ((lastSlot - firstSlot) / perSample + 1)] : new long[0];
        for (long s = 0; s <= lastSlot; s++) {
            occupancy += occupancyDelta[(int) s];
            if (s >= firstSlot) {
                max = Math.max(max, occupancy);
                sum += occupancy;
                if (perSample > 0) {
                    int k = (int) ((s - firstSlot) / perSample);
                    samples[k] = Math.max(samples[k], occupancy);
                }
            }
        }
        mean = sum / (lastSlot - firstSlot + 1);
    }

    /** @return the most commands in flight at once (after {@link #finish}) */
    public long max() {
        return max;
    }

    /** @return the mean of the commands in flight per slot, over the slots from the first issue to the last completion */
    public double mean() {
        return mean;
    }

    /** @return the largest occupancy in each sample interval from the first issue (after {@link #finish}) */
    public long[] samples() {
        return samples.clone();
    }
}
