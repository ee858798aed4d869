package org.jspin.bench.jmh;

import org.jspin.bench.pack.CaseBuffers;
import org.jspin.bench.pack.PackCases;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.nic.sim.SimNic;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.Strategies;
import org.jspin.nic.sim.work.WorkListener;

/**
 * One receive of a benchmark case through a simulated NIC's handlers with one strategy: the header
 * handler, every payload handler over the fabric's 256 KiB chunks of the packed message (already in
 * memory), the completion handler. What it measures is our Java handlers' speed on this machine,
 * not a NIC's: the simulated time is the timing model's business.
 */
final class SimReceive implements AutoCloseable {
    private static final int CHUNK = 256 << 10;

    private final CaseBuffers buffers;
    private final SimNic nic;
    private final Datatype type;
    private final long count;
    private final TypeCursor cursor;
    private final long payload;

    SimReceive(String caseName, String strategy) {
        this.buffers = new CaseBuffers(PackCases.named(caseName));
        this.type = buffers.benchCase().type();
        this.count = buffers.benchCase().count();
        this.payload = buffers.benchCase().payloadBytes();
        String why = Strategies.notApplicable(strategy, MessageShape.of(type, count));
        if (why != null) {
            throw new IllegalArgumentException(strategy + " is not applicable to " + caseName + ": " + why);
        }
        // NIC memory large enough that the strategy runs rather than falls back
        this.nic = new SimNic(SimConfig.DEFAULT.withStrategy(strategy).withNicMemory(1L << 30), WorkListener.NONE);
        this.cursor = type.cursor(count, buffers.typed(), buffers.origin());
    }

    long payload() {
        return payload;
    }

    /** @return DMA writes issued (consumed so the work is not dead) */
    long receive() {
        SimNic.Message m = nic.receive(type, count, buffers.typed(), cursor, payload, false);
        for (long off = 0; off < payload; off += CHUNK) {
            m.chunk(off, Math.min(CHUNK, payload - off), buffers.packed(), off);
        }
        m.complete();
        if (m.work().fallback != null) {
            throw new IllegalStateException("fell back to the host: " + m.work().fallback);
        }
        return m.work().dmaWrites;
    }

    @Override
    public void close() {
        buffers.close();
    }
}
