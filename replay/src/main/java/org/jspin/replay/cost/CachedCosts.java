package org.jspin.replay.cost;

/**
 * A NIC's costs worked out per (settings, type, count) once, in a {@link CostCache}, and then read from
 * it: the four costs of a message come from one computation, so each is looked up, never recomputed.
 */
abstract class CachedCosts implements MessageCosts {
    private final String nic;
    private final Object settings;
    private final CostCache cache;
    private final CostCache.Computation computation;

    /**
     * @param settings    what the costs depend on beyond the type and count, with value equality
     * @param computation a message's four costs, run once per key
     */
    CachedCosts(String nic, Object settings, CostCache cache, CostCache.Computation computation) {
        this.nic = nic;
        this.settings = settings;
        this.cache = cache;
        this.computation = computation;
    }

    private CostCache.Costs costs(MessageType type, long count) {
        return cache.get(settings, type, count, computation);
    }

    @Override
    public final String nic() {
        return nic;
    }

    @Override
    public final long sendCpuNs(MessageType type, long count) {
        return costs(type, count).sendCpuNs();
    }

    @Override
    public final long sendNicNs(MessageType type, long count) {
        return costs(type, count).sendNicNs();
    }

    @Override
    public final long recvNicNs(MessageType type, long count) {
        return costs(type, count).recvNicNs();
    }

    @Override
    public final long recvCpuNs(MessageType type, long count) {
        return costs(type, count).recvCpuNs();
    }
}
