package org.jspin.replay.cost;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.timing.HostModel;

/**
 * A host NIC's costs of a non-contiguous message: the sender's CPU packs it before it goes, the
 * receiver's CPU unpacks it once it is in, and the NIC moves plain bytes (no NIC cost). The CPU's time
 * is either the host model of the simulated NIC's timing parameters ({@code host}: {@code
 * host-bandwidth}, {@code host-region}, {@code cache-line}, each with its source in {@code TimingParam})
 * or our datatype engine measured on this machine ({@code host:measured}). Contiguous types cost 0.
 */
public final class HostCosts extends CachedCosts {
    /** Runs thrown away before a measurement. */
    public static final int WARMUPS = 5;
    /** Runs a measurement is the median of. */
    public static final int RUNS = 7;

    private HostCosts(String nic, Object settings, CostCache cache, CostCache.Computation computation) {
        super(nic, settings, cache, computation);
    }

    /** @return the host model's costs under {@code timing} ({@code host}), in a cache of their own */
    public static HostCosts modelled(TimingConfig timing) {
        return modelled(timing, new CostCache());
    }

    /** @return the host model's costs under {@code timing} ({@code host}), kept in {@code cache} */
    public static HostCosts modelled(TimingConfig timing, CostCache cache) {
        HostModel model = new HostModel(timing);
        return new HostCosts("host", timing, cache, (type, count) -> modelled(model, type, count));
    }

    /** @return our engine's pack and unpack measured here ({@code host:measured}), in a cache of their own */
    public static HostCosts measured() {
        return measured(new CostCache());
    }

    /** @return our engine's pack and unpack measured here ({@code host:measured}), kept in {@code cache} */
    public static HostCosts measured(CostCache cache) {
        PackTimer timer = new PackTimer(WARMUPS, RUNS);
        return new HostCosts("host:measured", "measured", cache, (type, count) -> {
            PackTimer.Times t = timer.time(type, count);
            return new CostCache.Costs(t.packNs(), 0, 0, t.unpackNs());
        });
    }

    /** @return the host model's pack (sender's CPU) and unpack (receiver's CPU) of a message, to the nearest ns */
    static CostCache.Costs modelled(HostModel model, Datatype type, long count) {
        MessageShape shape = MessageShape.of(type, count);
        return new CostCache.Costs(Math.round(model.pack(shape).modelledNs()), 0, 0,
                Math.round(model.of(shape).modelledNs()));
    }
}
