package org.jspin.nic.sim;

import org.jspin.nic.engine.Meters;
import org.jspin.nic.engine.Tally;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * The sim backend's meters: what its handlers did, summed over finished messages, under
 * {@code jspin.sim.*} (receives offloaded, unpacked from the overflow buffer, or fallen back to the
 * CPU; sends the CPU packed); and the traffic meters the host backend has too ({@code jspin.memory.*},
 * {@code jspin.cpu.bytes.*}), so that the two compare: the NIC writes (DMA) every byte it scatters
 * and reads every byte it gathers, the CPU reads and writes every byte it unpacks or packs instead.
 */
final class SimMeters implements WorkListener {
    private final Tally packets;
    private final Tally headerHandlers;
    private final Tally payloadHandlers;
    private final Tally completionHandlers;
    private final Tally outboundHandlers;
    private final Tally dmaWrites;
    private final Tally dmaReads;
    private final Tally blocksWalked;
    private final Tally catchUpBlocks;
    private final Tally levelsEntered;
    private final Tally checkpointBytes;
    private final Tally checkpointsMade;
    private final Tally checkpointsReused;
    private final Tally creationBlocks;
    private final Tally resets;
    private final Tally iovecRefills;
    private final Tally divisions;
    private final Tally searchSteps;
    private final Tally offloaded;
    private final Tally dropped;
    private final Tally discarded;
    private final Tally retransmitted;
    private final Tally fallbacks;
    private final Tally overflow;
    private final Tally sendFallbacks;
    private final Tally nicWritten;
    private final Tally nicRead;
    private final Tally cpuUnpacked;
    private final Tally cpuPacked;
    private final Tally cpuRead;
    private final Tally cpuWritten;
    private final Tally nicTimeNs;
    private final Tally hostModelNs;
    private final Tally memoryInUse;
    private final Tally memoryPeak;
    private final WorkListener next;

    /** @param next told after the meters (a tool's or a test's listener) */
    SimMeters(Meters meters, WorkListener next) {
        this.next = next;
        packets = meters.counter("jspin.sim.packets", "packets");
        headerHandlers = meters.counter("jspin.sim.handlers.header", "invocations");
        payloadHandlers = meters.counter("jspin.sim.handlers.payload", "invocations");
        completionHandlers = meters.counter("jspin.sim.handlers.completion", "invocations");
        outboundHandlers = meters.counter("jspin.sim.handlers.outbound", "invocations");
        dmaWrites = meters.counter("jspin.sim.dma.writes", "commands");
        dmaReads = meters.counter("jspin.sim.dma.reads", "commands");
        blocksWalked = meters.counter("jspin.sim.blocks.walked", "blocks");
        catchUpBlocks = meters.counter("jspin.sim.blocks.catch.up", "blocks");
        levelsEntered = meters.counter("jspin.sim.levels.entered", "levels");
        checkpointBytes = meters.counter("jspin.sim.checkpoint.bytes.copied", "bytes");
        checkpointsMade = meters.counter("jspin.sim.checkpoints.made", "checkpoints");
        checkpointsReused = meters.counter("jspin.sim.checkpoints.reused", "checkpoints");
        creationBlocks = meters.counter("jspin.sim.checkpoints.creation.blocks", "blocks");
        resets = meters.counter("jspin.sim.resets", "resets");
        iovecRefills = meters.counter("jspin.sim.iovec.refills", "refills");
        divisions = meters.counter("jspin.sim.seek.divisions", "divisions");
        searchSteps = meters.counter("jspin.sim.seek.search.steps", "steps");
        offloaded = meters.counter("jspin.sim.messages.offloaded", "messages");
        dropped = meters.counter("jspin.sim.link.dropped", "packets");
        discarded = meters.counter("jspin.sim.link.duplicates.discarded", "packets");
        retransmitted = meters.counter("jspin.sim.link.retransmissions", "packets");
        fallbacks = meters.counter("jspin.sim.messages.fallback", "messages");
        overflow = meters.counter("jspin.sim.messages.overflow", "messages");
        sendFallbacks = meters.counter("jspin.sim.sends.fallback", "messages");
        nicWritten = meters.counter("jspin.memory.nic.written", "bytes");
        nicRead = meters.counter("jspin.memory.nic.read", "bytes");
        cpuUnpacked = meters.counter("jspin.cpu.bytes.unpacked", "bytes");
        cpuPacked = meters.counter("jspin.cpu.bytes.packed", "bytes");
        cpuRead = meters.counter("jspin.memory.cpu.read", "bytes");
        cpuWritten = meters.counter("jspin.memory.cpu.written", "bytes");
        nicTimeNs = meters.counter("jspin.sim.nic.time", "ns");
        hostModelNs = meters.counter("jspin.sim.host.model.time", "ns");
        memoryInUse = meters.gauge("jspin.sim.nic.memory.in.use");
        memoryPeak = meters.gauge("jspin.sim.nic.memory.peak");
    }

    @Override
    public void nicMemory(long used, long peak) {
        memoryInUse.add(used - memoryInUse.get());
        memoryPeak.add(peak - memoryPeak.get());
        next.nicMemory(used, peak);
    }

    @Override
    public void handled(org.jspin.nic.sim.work.HandlerKind kind, long packet, int hpu, long offset, int length,
                        org.jspin.nic.sim.work.HandlerWork work) {
        next.handled(kind, packet, hpu, offset, length, work);
    }

    @Override
    public void messageDone(MessageWork m) {
        packets.add(m.packets);
        headerHandlers.add(m.headerHandlers);
        payloadHandlers.add(m.payloadHandlers);
        completionHandlers.add(m.completionHandlers);
        outboundHandlers.add(m.outboundHandlers);
        dmaWrites.add(m.dmaWrites);
        dmaReads.add(m.dmaReads);
        blocksWalked.add(m.blocksWalked);
        catchUpBlocks.add(m.catchUpBlocks);
        levelsEntered.add(m.levelsEntered);
        checkpointBytes.add(m.checkpointBytesCopied);
        checkpointsMade.add(m.checkpointsMade);
        checkpointsReused.add(m.checkpointsReused);
        creationBlocks.add(m.creationBlocks);
        resets.add(m.resets);
        iovecRefills.add(m.iovecRefills);
        divisions.add(m.divisions);
        searchSteps.add(m.searchSteps);
        dropped.add(m.packetsDropped);
        discarded.add(m.duplicatesDiscarded);
        retransmitted.add(m.retransmissions);
        if (m.timing != null) {
            nicTimeNs.add(m.timing.completionPs() / 1000); // simulated, not measured
            hostModelNs.add(m.timing.hostModelPs() / 1000); // a model, not measured
        }
        if (!m.receive) {
            sendFallbacks.add(m.fallback == null ? 0 : 1);
        } else if (m.fallback == null) {
            offloaded.add(1);
        } else if (m.fallback.startsWith("unexpected")) {
            overflow.add(1);
        } else {
            fallbacks.add(1);
        }
        nicWritten.add(m.dmaWriteBytes);
        nicRead.add(m.dmaReadBytes);
        if (m.receive) {
            cpuUnpacked.add(m.cpuBytes);
            nicWritten.add(m.cpuBytes); // the host NIC wrote those bytes to the overflow or staging buffer
        } else {
            cpuPacked.add(m.cpuBytes);
            nicRead.add(m.cpuBytes);
        }
        cpuRead.add(m.cpuBytes);
        cpuWritten.add(m.cpuBytes);
        next.messageDone(m);
    }
}
