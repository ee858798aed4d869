package org.jspin.nic.sim.timing;

/**
 * The DMA commands each HPU has in flight: per HPU a ring of the completion times of at most
 * {@code dma-outstanding} commands. An HPU that would issue one more stalls until its oldest completes.
 */
final class DmaRing {
    private final int outstanding;
    private final long[][] done;
    private final int[] head;
    private final int[] size;

    /** @param outstanding commands an HPU may have in flight ({@code dma-outstanding}, at least 1) */
    DmaRing(int hpus, int outstanding) {
        this.outstanding = outstanding;
        this.done = new long[hpus][outstanding];
        this.head = new int[hpus];
        this.size = new int[hpus];
    }

    /**
     * {@code hpu} would issue a command at {@code want}: the commands complete by then leave the ring,
     * and if it is still full the oldest is waited for.
     *
     * @return when the command is issued: {@code want}, or the oldest completion if the ring was full
     */
    long issue(int hpu, long want) {
        long[] ring = done[hpu];
        while (size[hpu] > 0 && ring[head[hpu]] <= want) {
            retireOldest(hpu);
        }
        if (size[hpu] < outstanding) {
            return want;
        }
        long oldest = ring[head[hpu]];
        retireOldest(hpu);
        return oldest;
    }

    /** {@code hpu}'s command just issued completes at {@code completion}. */
    void inFlight(int hpu, long completion) {
        done[hpu][(head[hpu] + size[hpu]) % outstanding] = completion;
        size[hpu]++;
    }

    /** @return commands {@code hpu} has in flight */
    int inFlight(int hpu) {
        return size[hpu];
    }

    private void retireOldest(int hpu) {
        head[hpu] = (head[hpu] + 1) % outstanding;
        size[hpu]--;
    }
}
