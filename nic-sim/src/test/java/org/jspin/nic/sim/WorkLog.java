package org.jspin.nic.sim;

import java.util.ArrayList;
import java.util.List;

import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/** Keeps a copy of every handler's work and every finished message, for assertions. */
final class WorkLog implements WorkListener {
    /** One handler invocation. */
    record Entry(HandlerKind kind, long packet, int hpu, long offset, int length, long blocks, long catchUp,
                 long dmaCommands, long dmaBytes, long checkpointBytes, long divisions, long resets) {
    }

    final List<Entry> handlers = new ArrayList<>();
    final List<MessageWork> messages = new ArrayList<>();

    @Override
    public void handled(HandlerKind kind, long packet, int hpu, long offset, int length, HandlerWork w) {
        handlers.add(new Entry(kind, packet, hpu, offset, length, w.blocks, w.catchUpBlocks, w.dmaCommands, w.dmaBytes,
                w.checkpointBytes, w.divisions, w.resets));
    }

    @Override
    public void messageDone(MessageWork message) {
        messages.add(message);
    }

    List<Entry> of(HandlerKind kind) {
        return handlers.stream().filter(e -> e.kind() == kind).toList();
    }
}
