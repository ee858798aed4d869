package org.jspin.nic.sim.strategy;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;

/**
 * The strategies by name: whether one applies to a message, what NIC memory it needs, and its
 * per-message state. {@code auto} picks {@code specialized} where the shape has a closed formula
 * (no state at all, the least work per packet), else the first general strategy whose state fits
 * the free NIC memory, in the order {@code rw-cp} (in order: no catch-up, no copy per packet, at the
 * price of checkpoint memory), {@code seek} (no checkpoints; positions each packet in
 * O(depth · log n)), {@code hpu-local} (least memory; catch-up grows with the HPUs); if none fits,
 * the receive falls back to the host. {@code ro-cp} and {@code iovec} are never chosen: each
 * costs more per packet than {@code rw-cp} in order (a checkpoint copy; a PCIe fetch every v
 * entries) and exists to be compared.
 */
public final class Strategies {
    /** What {@code auto} tries after {@code specialized}, in order. */
    static final String[] GENERAL = {RwCp.NAME, Seek.NAME, HpuLocal.NAME};

    private Strategies() {
    }

    /**
     * @param name a strategy name other than {@code auto}
     * @return why {@code name} does not apply to {@code shape}, or null if it does
     */
    public static String notApplicable(String name, MessageShape shape) {
        if (name.equals(Specialized.NAME)) {
            return Specialized.notApplicable(shape);
        }
        if (!name.equals(Iovec.NAME) && shape.depth() > SimConfig.MAX_SEGMENT_DEPTH) {
            return "its segment has " + shape.depth() + " levels, more than MPITypes' " + SimConfig.MAX_SEGMENT_DEPTH;
        }
        return null;
    }

    /** @return NIC memory {@code name}'s description and state take for {@code shape} */
    public static long nicBytes(String name, MessageShape shape, SimConfig config) {
        return switch (name) {
            case Specialized.NAME -> Specialized.nicBytes(shape);
            case HpuLocal.NAME -> HpuLocal.nicBytes(shape, config.hpus());
            case RoCp.NAME -> RoCp.nicBytes(shape, config.deltaR(), config.hpus());
            case RwCp.NAME -> RwCp.nicBytes(shape, config.deltaR());
            case Iovec.NAME -> Iovec.nicBytes(config.iovecEntries());
            case Seek.NAME -> Seek.nicBytes(shape, config.hpus());
            default -> throw new IllegalArgumentException("no strategy named " + name);
        };
    }

    /**
     * @param free NIC memory free for this message
     * @return the strategy {@code auto} picks for {@code shape}, or null if none applies and fits
     */
    public static String choose(MessageShape shape, SimConfig config, long free) {
        if (Specialized.notApplicable(shape) == null && Specialized.nicBytes(shape) <= free) {
            return Specialized.NAME;
        }
        for (String name : GENERAL) {
            if (notApplicable(name, shape) == null && nicBytes(name, shape, config) <= free) {
                return name;
            }
        }
        return null;
    }

    /**
     * Makes the state of strategy {@code name} (which must apply) for one message: what the header
     * handler sets up, with checkpoints or iovec lists taken from (or added to) {@code cache}.
     *
     * @param setup counts the set-up's own work (checkpoint copies, the first iovec batch)
     */
    public static PayloadStrategy open(String name, MessageShape shape, SimConfig config, Checkpoints cache,
                                       MessageWork message, HandlerWork setup) {
        return switch (name) {
            case Specialized.NAME -> new Specialized(shape);
            case HpuLocal.NAME -> new HpuLocal(shape, config.hpus());
            case RoCp.NAME -> new RoCp(shape, cache.checkpoints(shape, config.deltaR(), message), config.deltaR(),
                    config.hpus());
            case RwCp.NAME -> new RwCp(shape, cache.checkpoints(shape, config.deltaR(), message), config.deltaR(), setup);
            case Iovec.NAME -> new Iovec(shape, cache.iovec(shape, message), config.iovecEntries(), setup);
            case Seek.NAME -> new Seek(shape, config.hpus());
            default -> throw new IllegalArgumentException("no strategy named " + name);
        };
    }
}
