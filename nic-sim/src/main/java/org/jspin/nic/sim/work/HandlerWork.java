package org.jspin.nic.sim.work;

/**
 * What one handler invocation did, counted as a NIC would do it: the one contract between doing
 * (the strategies and handlers) and costing (a timing model). Reused: a handler clears it, fills it
 * and hands it on; nothing is allocated per packet.
 *
 * <p>The counters:
 * <ul>
 * <li>{@link #blocks}: contiguous pieces the handler emitted (each one DMA command), that is, leaf
 * blocks of the type map visited while moving data; a block cut by a packet boundary counts in
 * both packets.</li>
 * <li>{@link #catchUpBlocks}: whole blocks a walking strategy passed over without moving data, to
 * reach the packet's offset from where its segment was (a real NIC walks MPITypes dataloops one
 * leaf block at a time, even though our cursor could jump).</li>
 * <li>{@link #levels}: dataloop levels entered (frames pushed) while walking or emitting.</li>
 * <li>{@link #dmaCommands}, {@link #dmaBytes}: DMA writes (inbound) or reads (outbound) issued.</li>
 * <li>{@link #checkpointBytes}: bytes of segment state copied in NIC memory (restoring a
 * checkpoint into a handler's segment).</li>
 * <li>{@link #divisions}, {@link #searchSteps}: closed-form positioning: one division per vector
 * level, one step per probe of a binary search over an indexed or struct level.</li>
 * <li>{@link #resets}: segments sent back to a checkpoint or the start because the packet lay
 * behind them.</li>
 * <li>{@link #refills}: batches of iovec entries fetched from host memory.</li>
 * <li>{@link #fullLines}, {@link #partialLines}: host cache lines the DMA commands covered whole or in
 * part.</li>
 * </ul>
 */
public final class HandlerWork {
    /** Pieces emitted (one DMA command each). */
    public long blocks;
    /** Whole blocks passed over to catch up. */
    public long catchUpBlocks;
    /** Dataloop levels entered. */
    public long levels;
    /** DMA commands issued. */
    public long dmaCommands;
    /** Bytes those DMA commands moved. */
    public long dmaBytes;
    /** Segment state bytes copied in NIC memory. */
    public long checkpointBytes;
    /** Divisions of closed-form positioning. */
    public long divisions;
    /** Binary search probes of closed-form positioning (and iovec scans). */
    public long searchSteps;
    /** Segment resets. */
    public long resets;
    /** iovec batches fetched from host memory. */
    public long refills;
    /** Host cache lines the DMA commands covered whole. */
    public long fullLines;
    /** Host cache lines the DMA commands covered in part (each a read-modify-write for a write). */
    public long partialLines;

    /** Zeroes every counter before the next invocation. */
    public void clear() {
        blocks = 0;
        catchUpBlocks = 0;
        levels = 0;
        dmaCommands = 0;
        dmaBytes = 0;
        checkpointBytes = 0;
        divisions = 0;
        searchSteps = 0;
        resets = 0;
        refills = 0;
        fullLines = 0;
        partialLines = 0;
    }
}
