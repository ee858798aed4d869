package org.jspin.replay.cost;

import org.jspin.nic.sim.TimedMessage;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.timing.HostModel;
import org.jspin.nic.sim.work.MessageTiming;

/**
 * A sPIN NIC's costs of a non-contiguous message, from its simulated timeline for that type and count
 * ({@link TimedMessage}: the real handlers on both sides, as {@code jspin sim} runs them, under the
 * configuration's strategy, preset and settings). The CPU stays free; the NIC's times are:
 * <ul>
 * <li>{@link #sendNicNs}: how much later the message's last byte leaves the sender than it would at
 * line rate from the moment the send was posted (the outbound handlers gather each packet over PCIe
 * first); never negative.</li>
 * <li>{@link #recvNicNs}: from the moment the last byte would have arrived at line rate (the link
 * latency, then the bytes at {@code line-rate} from time 0) until the completion handler finished,
 * that is the timeline's completion minus the link's own time for the message; never negative (0 if
 * the handlers kept up and finished with the link).</li>
 * </ul>
 * Picoseconds are rounded to the nearest ns. A side the NIC cannot take (no strategy applies, or its
 * state does not fit NIC memory) falls back to the CPU, as the simulated NIC does: that side costs the
 * host model's pack or unpack on the CPU instead.
 */
public final class SimCosts extends CachedCosts {
    /** The NIC of {@code config} ({@code jspin sim}'s, presets and settings included), in a cache of its own. */
    public SimCosts(SimConfig config) {
        this(config, new CostCache());
    }

    /**
     * The NIC of {@code config}, its timelines kept in {@code cache}; named {@code sim:} and the strategy
     * ({@code sim:auto} by default, as {@code jspin sim}).
     */
    public SimCosts(SimConfig config, CostCache cache) {
        super("sim:" + config.strategy(), config, cache, simulator(config));
    }

    /** @return what simulating one message on both sides of a NIC of {@code config} says it costs */
    private static CostCache.Computation simulator(SimConfig config) {
        HostModel host = new HostModel(config.timing());
        double psPerBit = 1000.0 / config.timing().get(TimingParam.LINE_RATE);
        return (type, count) -> {
            TimedMessage m = TimedMessage.of(type, count, config);
            CostCache.Costs cpu = HostCosts.modelled(host, type, count);
            long sendNic = m.sendOffloaded() ? ns(m.sendTime().delayPs()) : 0;
            long recvNic = m.receiveOffloaded() ? ns(afterLastBytePs(m.receive().timing, psPerBit)) : 0;
            return new CostCache.Costs(m.sendOffloaded() ? 0 : cpu.sendCpuNs(), sendNic, recvNic,
                    m.receiveOffloaded() ? 0 : cpu.recvCpuNs());
        };
    }

    /** @return how long after the last byte's arrival at line rate the completion handler finished, ps (or 0) */
    private static long afterLastBytePs(MessageTiming t, double psPerBit) {
        return Math.max(0, t.completionPs() - t.linkLatencyPs() - Math.round(t.bytes() * 8 * psPerBit));
    }

    private static long ns(long ps) {
        return Math.round(ps / 1000.0);
    }
}
