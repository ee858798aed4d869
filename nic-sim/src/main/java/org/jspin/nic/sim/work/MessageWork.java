package org.jspin.nic.sim.work;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the NIC did for one message, summed over its handlers, with how the message was handled
 * (which strategy, or why it fell back to the host). Counters as in {@link HandlerWork}, plus:
 * <ul>
 * <li>{@link #packets}: NIC packets handled (a chunk of the fabric cut into packets of the
 * configured payload; a chunk's last packet may be shorter);</li>
 * <li>{@link #checkpointsMade}, {@link #checkpointsReused}, {@link #creationBlocks}: checkpoints
 * (or iovec entries) built for this (type, count) on first use, the blocks walked to build them,
 * and how many were found already built;</li>
 * <li>{@link #nicMemoryBytes}: NIC memory the message's description and state took;</li>
 * <li>{@link #cpuBytes}: bytes the CPU copied instead (a fallback, or an unexpected message
 * unpacked from the overflow buffer);</li>
 * <li>{@link #packetsDropped}, {@link #duplicatesDiscarded}, {@link #retransmissions}: what a faulty
 * link ({@code LinkFaults}) did to the message's packets, and what the NIC did about it.</li>
 * </ul>
 */
public final class MessageWork {
    /** Receive or send. */
    public final boolean receive;
    /** The strategy that ran the handlers, or {@code host} when the CPU did the work. */
    public String strategy;
    /** Why the CPU did the work (null when the NIC did). */
    public String fallback;
    /** The Δr checkpoints were made at ({@code ro-cp}, {@code rw-cp}), else 0. */
    public long deltaR;
    /** Message bytes handled. */
    public long bytes;
    /** NIC packets handled. */
    public long packets;
    /** Header handlers run. */
    public long headerHandlers;
    /** Payload handlers run. */
    public long payloadHandlers;
    /** Completion handlers run. */
    public long completionHandlers;
    /** Outbound handlers run. */
    public long outboundHandlers;
    /** DMA writes into host memory. */
    public long dmaWrites;
    /** Bytes of those writes. */
    public long dmaWriteBytes;
    /** DMA reads from host memory. */
    public long dmaReads;
    /** Bytes of those reads. */
    public long dmaReadBytes;
    /** Pieces emitted (blocks visited while moving data). */
    public long blocksWalked;
    /** Blocks passed over catching up. */
    public long catchUpBlocks;
    /** Dataloop levels entered. */
    public long levelsEntered;
    /** Segment state bytes copied. */
    public long checkpointBytesCopied;
    /** Checkpoints (or iovec entries) built for this message's (type, count). */
    public long checkpointsMade;
    /** Checkpoints (or iovec entries) found built by an earlier message. */
    public long checkpointsReused;
    /** Blocks walked to build checkpoints or iovec entries. */
    public long creationBlocks;
    /** Segment resets. */
    public long resets;
    /** iovec batches fetched. */
    public long iovecRefills;
    /** Divisions of closed-form positioning. */
    public long divisions;
    /** Binary search probes. */
    public long searchSteps;
    /** NIC memory taken by the description and state. */
    public long nicMemoryBytes;
    /** Bytes the CPU copied instead of the NIC. */
    public long cpuBytes;
    /** Transmissions of the message's packets the link lost. */
    public long packetsDropped;
    /** Copies of packets already received that the NIC discarded before any handler. */
    public long duplicatesDiscarded;
    /** Packets sent again after the NIC asked for them. */
    public long retransmissions;
    /** Host cache lines the DMA commands covered whole. */
    public long fullLines;
    /** Host cache lines the DMA commands covered in part. */
    public long partialLines;
    /** What the clock said of the message (null until the timing model ran it). */
    public MessageTiming timing;
    /** The DMA write queue's largest occupancy per packet inter-arrival time (not in {@link #toMap}). */
    public long[] dmaQueueSamples;

    /** @param receive whether this is a receive (else a send) */
    public MessageWork(boolean receive) {
        this.receive = receive;
    }

    /** Adds one handler's work. */
    public void add(HandlerWork w) {
        blocksWalked += w.blocks;
        catchUpBlocks += w.catchUpBlocks;
        levelsEntered += w.levels;
        checkpointBytesCopied += w.checkpointBytes;
        divisions += w.divisions;
        searchSteps += w.searchSteps;
        resets += w.resets;
        iovecRefills += w.refills;
        fullLines += w.fullLines;
        partialLines += w.partialLines;
        if (receive) {
            dmaWrites += w.dmaCommands;
            dmaWriteBytes += w.dmaBytes;
        } else {
            dmaReads += w.dmaCommands;
            dmaReadBytes += w.dmaBytes;
        }
    }

    /** @return every counter by name, in a stable order (the JSON of {@code jspin sim}) */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("strategy", strategy);
        m.put("fallback", fallback);
        m.put("delta_r", deltaR);
        m.put("bytes", bytes);
        m.put("packets", packets);
        m.put("header_handlers", headerHandlers);
        m.put("payload_handlers", payloadHandlers);
        m.put("completion_handlers", completionHandlers);
        m.put("outbound_handlers", outboundHandlers);
        m.put("dma_writes", dmaWrites);
        m.put("dma_write_bytes", dmaWriteBytes);
        m.put("dma_reads", dmaReads);
        m.put("dma_read_bytes", dmaReadBytes);
        m.put("blocks_walked", blocksWalked);
        m.put("catch_up_blocks", catchUpBlocks);
        m.put("levels_entered", levelsEntered);
        m.put("checkpoint_bytes_copied", checkpointBytesCopied);
        m.put("checkpoints_made", checkpointsMade);
        m.put("checkpoints_reused", checkpointsReused);
        m.put("creation_blocks", creationBlocks);
        m.put("resets", resets);
        m.put("iovec_refills", iovecRefills);
        m.put("divisions", divisions);
        m.put("search_steps", searchSteps);
        m.put("nic_memory_bytes", nicMemoryBytes);
        m.put("cpu_bytes", cpuBytes);
        m.put("packets_dropped", packetsDropped);
        m.put("duplicates_discarded", duplicatesDiscarded);
        m.put("retransmissions", retransmissions);
        m.put("dma_full_lines", fullLines);
        m.put("dma_partial_lines", partialLines);
        if (timing != null) {
            m.put("timing", timing.toMap());
        }
        return m;
    }

    @Override
    public String toString() {
        return (receive ? "receive " : "send ") + toMap();
    }
}
