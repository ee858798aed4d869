package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;

/**
 * NIC memory as the handlers see it: every 8-byte access costs the access latency; with contention on,
 * accesses are spread over the banks (a handler's accesses walk the banks from one its HPU is mapped
 * to) and each bank serves one access per {@code 8 B / (bandwidth / banks)}, so accesses that meet at
 * a busy bank queue. Without contention the bandwidth is never the limit, as in the paper's model.
 *
 * <p>A handler's accesses are all booked when it starts (the handlers are simulated one at a time),
 * so two handlers that overlap in time meet at the banks in the order they started: an
 * approximation of interleaved accesses that keeps the model deterministic.
 */
public final class NicMemoryModel {
    private final long latencyPs;
    private final boolean contention;
    private final long servicePs;
    private final long[] bankFree;

    public NicMemoryModel(TimingConfig t, double psPerCycle) {
        this.latencyPs = Math.round(t.get(TimingParam.MEMORY_LATENCY) * psPerCycle);
        this.contention = t.get(TimingParam.MEMORY_CONTENTION) != 0;
        int banks = (int) t.get(TimingParam.MEMORY_BANKS);
        double perBankBytesPerPs = t.get(TimingParam.MEMORY_BANDWIDTH) * (1L << 30) / 1e12 / banks;
        this.servicePs = Math.max(1, Math.round(8 / perBankBytesPerPs));
        this.bankFree = new long[banks];
    }

    /**
     * Performs {@code accesses} accesses one after the other from {@code start} for a handler on
     * {@code hpu}.
     *
     * @return when the last one completed
     */
    public long access(long start, int hpu, long accesses) {
        if (!contention) {
            return start + accesses * latencyPs;
        }
        long t = start;
        int banks = bankFree.length;
        int bank = hpu % banks;
        for (long i = 0; i < accesses; i++) {
            long begin = Math.max(t, bankFree[bank]);
            bankFree[bank] = begin + servicePs;
            t = begin + Math.max(latencyPs, servicePs);
            if (++bank == banks) {
                bank = 0;
            }
        }
        return t;
    }

    /** @return the latency of one access, in ps */
    public long latencyPs() {
        return latencyPs;
    }
}
