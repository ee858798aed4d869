package org.jspin.nic.sim.strategy;

import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code iovec}: Portals 4's scatter-gather list, the paper's competitor. The flattened type map is a
 * list of (offset, length) entries in host memory; the NIC holds a batch of v of them at a time and
 * fetches the next batch over PCIe when a packet needs an entry beyond it (each fetch counted as a
 * refill). The NIC keeps one pointer into the list and scans forward entry by entry to a packet's
 * first byte (each entry passed counted as a search step). A packet that lies behind the pointer
 * (out-of-order delivery) sends it back to the start of the list (a reset and a refill), since the
 * NIC has no index of packed offsets.
 */
public final class Iovec extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "iovec";

    /** The flattened type map: entry e is {@code lens[e]} bytes at {@code offs[e]}. */
    record Entries(long[] offs, long[] lens) {
    }

    private final long[] offs;
    private final long[] lens;
    private final int batch;
    /** The entry the NIC's pointer is at, its first packed byte, and the batch on the NIC. */
    private int cur;
    private long curStart;
    private int loaded = -1;

    Iovec(MessageShape shape, Entries entries, int batch, HandlerWork setup) {
        super(IOVEC, NAME, shape, nicBytes(batch));
        this.offs = entries.offs;
        this.lens = entries.lens;
        this.batch = batch;
        load(0, setup); // the first batch comes with the match entry
    }

    static long nicBytes(int batch) {
        return 16L * batch + 16;
    }

    private void load(int entry, HandlerWork work) {
        int b = entry / batch;
        if (b != loaded) {
            loaded = b;
            work.refills++;
        }
    }

    void handle(long offset, int length, Dma dma, HandlerWork work) {
        if (offset < curStart) {
            cur = 0;
            curStart = 0;
            work.resets++;
            load(0, work);
        }
        while (curStart + lens[cur] <= offset) {
            curStart += lens[cur];
            cur++;
            work.searchSteps++;
            load(cur, work);
        }
        long within = offset - curStart;
        long left = length;
        while (left > 0) {
            long piece = Math.min(lens[cur] - within, left);
            dma.piece(offs[cur] + within, piece, work);
            work.blocks++;
            left -= piece;
            if (within + piece == lens[cur] && cur + 1 < lens.length) {
                curStart += lens[cur];
                cur++;
                within = 0;
                load(cur, work);
            } else {
                within += piece;
            }
        }
    }
}
