package org.jspin.nic.sim;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.handler.CpuUnpack;
import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.handler.ImmediateScheduler;
import org.jspin.nic.sim.handler.MessageHandlers;
import org.jspin.nic.sim.memory.NicMemory;
import org.jspin.nic.sim.schedule.LossyLink;
import org.jspin.nic.sim.schedule.PacketOrder;
import org.jspin.nic.sim.strategy.Checkpoints;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.PayloadStrategy;
import org.jspin.nic.sim.strategy.Strategies;
import org.jspin.nic.sim.timing.DeltaR;
import org.jspin.nic.sim.timing.HandlerScheduler;
import org.jspin.nic.sim.timing.TimedScheduler;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * One rank's simulated sPIN NIC, apart from the protocol (which the shared engine runs): its
 * configuration, handler memory, checkpoint cache, and the messages it handles. A message is handled
 * by the NIC's handlers with the configured strategy, or by the CPU when the strategy does not apply,
 * its state does not fit the free NIC memory, or the bytes wait in the overflow buffer (an unexpected
 * message); each such fallback is counted with its reason. A matched receive's packets come through the
 * configured link ({@link LossyLink}), which may reorder, lose and duplicate them, whether the handlers
 * or the CPU take them. Not thread-safe: one thread at a time, as the engine drives it.
 */
public final class SimNic {
    private final SimConfig config;
    private final WorkListener listener;
    private final NicMemory memory;
    private final Checkpoints checkpoints = new Checkpoints();
    private long messages;

    /**
     * @param listener told of every handler and every finished message
     */
    public SimNic(SimConfig config, WorkListener listener) {
        this.config = config;
        this.listener = listener;
        this.memory = new NicMemory(config.nicMemoryBytes());
    }

    /** @return the configuration */
    public SimConfig config() {
        return config;
    }

    /** @return the handler memory */
    public NicMemory memory() {
        return memory;
    }

    /**
     * A receive matched a message and takes its first {@code accepted} bytes: runs the header handler
     * (or decides the CPU unpacks).
     *
     * @param cursor       the receive's cursor over its buffer (the CPU's, if it falls back)
     * @param fromOverflow whether the bytes wait in the overflow buffer (an unexpected message)
     */
    public Message receive(Datatype type, long count, MemorySegment buffer, TypeCursor cursor, long accepted,
                           boolean fromOverflow) {
        MessageWork work = new MessageWork(true);
        work.bytes = accepted;
        if (fromOverflow) {
            work.strategy = "host";
            work.fallback = "unexpected: the CPU unpacks it from the overflow buffer";
            return new Message(work, null, null, cursor, true, 0);
        }
        return start(MessageShape.of(type, count), new Dma(true, buffer, cursor.origin()), cursor, true, work);
    }

    /**
     * A send starts: sets up its outbound handlers (or decides the CPU packs).
     *
     * @param cursor the send's cursor over its buffer
     */
    public Message send(Datatype type, long count, MemorySegment buffer, TypeCursor cursor) {
        MessageWork work = new MessageWork(false);
        work.bytes = cursor.total();
        return start(MessageShape.of(type, count), new Dma(false, buffer, cursor.origin()), cursor, false, work);
    }

    private Message start(MessageShape shape, Dma dma, TypeCursor cursor, boolean inbound, MessageWork work) {
        if (shape.message() == null) {
            work.strategy = config.strategy(); // an empty message: no packet, no handler, nothing to hold
            return new Message(work, null, null, cursor, inbound, 0);
        }
        long free = memory.free();
        SimConfig resolved = resolveDeltaR(shape, free);
        String name = resolved.strategy();
        if (name.equals("auto")) {
            name = Strategies.choose(shape, resolved, free);
            if (name == null) {
                work.fallback = "auto: no strategy applies whose state fits the " + free + " free bytes of NIC memory";
            }
        } else {
            String why = Strategies.notApplicable(name, shape);
            if (why != null) {
                work.fallback = name + " not applicable: " + why;
                name = null;
            } else if (Strategies.nicBytes(name, shape, resolved) > free) {
                work.fallback = "NIC memory: " + name + " needs " + Strategies.nicBytes(name, shape, resolved)
                        + " bytes, " + free + " of " + memory.capacity() + " are free";
                name = null;
            }
        }
        if (name == null) {
            work.strategy = "host";
            CpuUnpack cpu = null;
            if (inbound && (resolved.faults().any() || resolved.oooWindow() > 1)) {
                long seq = messages++;
                cpu = new CpuUnpack(cursor, resolved.packetBytes(), new PacketOrder(resolved.oooWindow(),
                        resolved.seed(), seq), link(resolved, seq), work);
            }
            return new Message(work, null, cpu, cursor, inbound, 0);
        }
        HandlerWork setup = new HandlerWork();
        PayloadStrategy strategy = Strategies.open(name, shape, resolved, checkpoints, work, setup);
        work.deltaR = strategy.name().equals("rw-cp") || strategy.name().equals("ro-cp") ? resolved.deltaR() : 0;
        long reserved = strategy.nicBytes();
        memory.reserve(reserved);
        listener.nicMemory(memory.used(), memory.peak());
        work.strategy = name;
        work.nicMemoryBytes = reserved;
        long seq = messages++;
        PacketOrder order = new PacketOrder(resolved.oooWindow(), resolved.seed(), seq);
        LossyLink link = inbound ? link(resolved, seq) : null;
        // the receive side runs on the message's clock; the send side has none yet
        HandlerScheduler scheduler = inbound ? new TimedScheduler(resolved, shape, setup) : new ImmediateScheduler();
        return new Message(work, new MessageHandlers(resolved, strategy, dma, inbound, work, listener, order, link,
                setup, scheduler), null, cursor, inbound, reserved);
    }

    private static LossyLink link(SimConfig c, long seq) {
        return new LossyLink(c.faults(), c.seed(), seq);
    }

    /** @return the configuration with Δr fixed for this message (the configured one, or the model's) */
    private SimConfig resolveDeltaR(MessageShape shape, long free) {
        if (config.deltaR() > 0) {
            return config;
        }
        long dr = DeltaR.choose(shape, config, config.timing(), free,
                d -> Strategies.nicBytes("rw-cp", shape, config.withDeltaR(d)));
        return config.withDeltaR(dr);
    }

    /** One message in progress on this NIC, inbound or outbound. */
    public final class Message {
        private final MessageWork work;
        private final MessageHandlers handlers;
        private final CpuUnpack cpu;
        private final TypeCursor cursor;
        private final boolean inbound;
        private long reserved;

        private Message(MessageWork work, MessageHandlers handlers, CpuUnpack cpu, TypeCursor cursor, boolean inbound,
                        long reserved) {
            this.work = work;
            this.handlers = handlers;
            this.cpu = cpu;
            this.cursor = cursor;
            this.inbound = inbound;
            this.reserved = reserved;
        }

        /** @return what the NIC (or the CPU) did for the message so far */
        public MessageWork work() {
            return work;
        }

        /** @return whether the NIC's handlers move the bytes (false: the CPU does) */
        public boolean offloaded() {
            return handlers != null;
        }

        /**
         * Moves message bytes {@code [offset, offset + length)} between {@code nic} at {@code nicOffset}
         * (a packet buffer) and the user's buffer: inbound the payload handlers scatter them, outbound
         * the outbound handlers gather them; or the CPU unpacks or packs them.
         */
        public void chunk(long offset, long length, MemorySegment nic, long nicOffset) {
            if (handlers != null) {
                handlers.chunk(offset, length, nic, nicOffset);
                return;
            }
            if (cpu != null) {
                cpu.chunk(offset, length, nic, nicOffset);
                return;
            }
            if (cursor.position() != offset) {
                cursor.seek(offset);
            }
            if (inbound) {
                cursor.unpack(nic, nicOffset, length);
            } else {
                cursor.pack(nic, nicOffset, length);
            }
            work.cpuBytes += length;
        }

        /** The message is done: the completion handler runs (inbound), its NIC memory is freed. */
        public void complete() {
            if (handlers != null && inbound) {
                handlers.completion();
            }
            end();
            listener.messageDone(work);
        }

        /** The message ended early: its NIC memory is freed, no completion handler runs. */
        public void abandon() {
            end();
        }

        private void end() {
            if (reserved > 0) {
                memory.release(reserved);
                reserved = 0;
                listener.nicMemory(memory.used(), memory.peak());
            }
        }
    }
}
