package org.jspin.replay.cost;

import java.util.concurrent.ConcurrentHashMap;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What each (settings, type, count) a replay met costs, computed once: simulating a message's
 * timeline or measuring its pack takes far longer than a replay's step, and a trace repeats the same
 * few messages thousands of times. Safe for concurrent replays; one cache may serve several NICs,
 * since the settings are part of the key.
 */
public final class CostCache {
    /** The four costs of one message, ns, as {@link MessageCosts} names them. */
    public record Costs(long sendCpuNs, long sendNicNs, long recvNicNs, long recvCpuNs) {
        /** A message that costs nothing beyond LogGOPS (plain bytes). */
        public static final Costs NONE = new Costs(0, 0, 0, 0);
    }

    /** Works out a message's costs: run once per key. */
    @FunctionalInterface
    public interface Computation {
        /** @return what {@code count} elements of the committed {@code type} cost */
        Costs compute(Datatype type, long count);
    }

    private record Key(Object settings, String json, long count) {
    }

    private final ConcurrentHashMap<Key, Costs> costs = new ConcurrentHashMap<>();

    /**
     * @param settings what the costs depend on beyond the type and count (a configuration, a mode), with
     *                 value equality
     * @return the costs of {@code count} elements of {@code type}: {@link Costs#NONE} for a contiguous
     *         type, otherwise {@code computation}'s, run the first time this key is asked for
     * @throws MpiException ERR_COUNT for a negative count; ERR_ARG for a description that does not parse
     */
    public Costs get(Object settings, MessageType type, long count, Computation computation) {
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "a message's count must be non-negative, got " + count);
        }
        if (type.contiguous() || count == 0) {
            return Costs.NONE;
        }
        return costs.computeIfAbsent(new Key(settings, type.json(), count),
                k -> computation.compute(DatatypeJson.parse(k.json()).commit(), k.count()));
    }

    /** @return (settings, type, count) keys computed so far */
    public int size() {
        return costs.size();
    }
}
