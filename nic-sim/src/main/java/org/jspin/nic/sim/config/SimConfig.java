package org.jspin.nic.sim.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Every parameter of the simulated NIC, validated once when built and stamped on every result.
 * Each default names its source in {@link #describe()}.
 *
 * @param strategy       the datatype strategy of the payload handlers: {@code specialized},
 *                       {@code hpu-local}, {@code ro-cp}, {@code rw-cp}, {@code iovec}, {@code seek}
 *                       or {@code auto}
 * @param packetBytes    payload bytes of one NIC packet (the fabric's chunks are cut into these)
 * @param hpus           handler processing units (P)
 * @param deltaR         bytes between two checkpoints of {@code ro-cp} and {@code rw-cp} (the
 *                       paper's Δr), a multiple of {@code packetBytes}; 0 to let the paper's model
 *                       choose it for each message ({@code DeltaR})
 * @param nicMemoryBytes handler memory: the datatype description, checkpoints and per-HPU state of
 *                       the receives in progress must fit, or a receive falls back to the host
 * @param iovecEntries   entries of the Portals 4 scatter-gather list the NIC holds at once (v)
 * @param oooWindow      out-of-order delivery: the NIC packets of each chunk are permuted within
 *                       consecutive windows of this many packets (1: in order)
 * @param seed           seed of the out-of-order permutation and of the link's faults (deterministic
 *                       for a seed)
 * @param faults         packets the link loses or duplicates ({@link LinkFaults#NONE}: none)
 * @param timing         the timing model's parameters
 */
public record SimConfig(String strategy, int packetBytes, int hpus, long deltaR, long nicMemoryBytes,
                        int iovecEntries, int oooWindow, long seed, LinkFaults faults, TimingConfig timing) {
    /** The strategies by name, {@code auto} last. */
    public static final java.util.List<String> STRATEGIES = java.util.List.of("specialized", "hpu-local", "ro-cp",
            "rw-cp", "iovec", "seek", "auto");
    /** MPITypes' dataloop stack holds at most this many levels; a deeper segment does not fit a handler. */
    public static final int MAX_SEGMENT_DEPTH = 16;

    /** The defaults; see {@link #describe()} for where each comes from. */
    public static final SimConfig DEFAULT = new SimConfig("auto", 2048, 32, 0, 4L << 20, 32, 1, 1, LinkFaults.NONE,
            TimingConfig.PAPER);

    /**
     * @throws MpiException ERR_ARG naming the parameter out of range
     */
    public SimConfig {
        if (strategy == null || !STRATEGIES.contains(strategy)) {
            throw new MpiException(ErrorClass.ERR_ARG, "unknown strategy '" + strategy + "'; one of " + STRATEGIES);
        }
        if (packetBytes < 8 || packetBytes > 1 << 20) {
            throw new MpiException(ErrorClass.ERR_ARG, "NIC packet payload must be in [8, 1 MiB], got " + packetBytes);
        }
        if (hpus < 1 || hpus > 4096) {
            throw new MpiException(ErrorClass.ERR_ARG, "HPUs must be in [1, 4096], got " + hpus);
        }
        if (deltaR != 0 && (deltaR < packetBytes || deltaR % packetBytes != 0)) {
            throw new MpiException(ErrorClass.ERR_ARG, "delta-r must be 0 (chosen by the model) or a positive multiple"
                    + " of the packet payload " + packetBytes + ", got " + deltaR);
        }
        if (faults == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "link faults must not be null (LinkFaults.NONE for none)");
        }
        if (timing == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "timing configuration must not be null");
        }
        if (nicMemoryBytes < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "NIC memory must be non-negative, got " + nicMemoryBytes);
        }
        if (iovecEntries < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "iovec entries must be at least 1, got " + iovecEntries);
        }
        if (oooWindow < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "out-of-order window must be at least 1 (in order), got "
                    + oooWindow);
        }
    }

    /** @return a copy with another strategy */
    public SimConfig withStrategy(String name) {
        return new SimConfig(name, packetBytes, hpus, deltaR, nicMemoryBytes, iovecEntries, oooWindow, seed,
                faults, timing);
    }

    /** @return a copy with another NIC packet payload (Δr kept if still a multiple, else 16 packets) */
    public SimConfig withPacketBytes(int bytes) {
        long dr = deltaR % bytes == 0 && deltaR >= bytes ? deltaR : 0;
        return new SimConfig(strategy, bytes, hpus, dr, nicMemoryBytes, iovecEntries, oooWindow, seed, faults, timing);
    }

    /** @return a copy with another HPU count */
    public SimConfig withHpus(int count) {
        return new SimConfig(strategy, packetBytes, count, deltaR, nicMemoryBytes, iovecEntries, oooWindow, seed,
                faults, timing);
    }

    /** @return a copy with another Δr */
    public SimConfig withDeltaR(long bytes) {
        return new SimConfig(strategy, packetBytes, hpus, bytes, nicMemoryBytes, iovecEntries, oooWindow, seed,
                faults, timing);
    }

    /** @return a copy with another NIC memory capacity */
    public SimConfig withNicMemory(long bytes) {
        return new SimConfig(strategy, packetBytes, hpus, deltaR, bytes, iovecEntries, oooWindow, seed, faults, timing);
    }

    /** @return a copy with another iovec length */
    public SimConfig withIovecEntries(int entries) {
        return new SimConfig(strategy, packetBytes, hpus, deltaR, nicMemoryBytes, entries, oooWindow, seed,
                faults, timing);
    }

    /** @return a copy delivering out of order within windows of {@code window} packets, seeded */
    public SimConfig withOutOfOrder(int window, long seed) {
        return new SimConfig(strategy, packetBytes, hpus, deltaR, nicMemoryBytes, iovecEntries, window, seed,
                faults, timing);
    }

    /** @return a copy whose link loses and duplicates packets as {@code f} says */
    public SimConfig withFaults(LinkFaults f) {
        return new SimConfig(strategy, packetBytes, hpus, deltaR, nicMemoryBytes, iovecEntries, oooWindow, seed,
                f, timing);
    }

    /** @return a copy with other timing parameters */
    public SimConfig withTiming(TimingConfig t) {
        return new SimConfig(strategy, packetBytes, hpus, deltaR, nicMemoryBytes, iovecEntries, oooWindow, seed,
                faults, t);
    }

    /**
     * Reads overrides of the defaults from a spec such as {@code strategy=rw-cp,packet=1024,hpus=16}
     * (keys: strategy, packet, hpus, delta-r, nic-memory, iovec, ooo-window, seed, drop, duplicate,
     * retransmits, preset, and the timing parameters' keys): how the {@code JSPIN_SIM} variable configures the backend of a
     * running program.
     *
     * @throws MpiException ERR_ARG naming an unknown key or a bad value
     */
    public static SimConfig parse(String spec) {
        SimConfig c = DEFAULT;
        if (spec == null || spec.isBlank()) {
            return c;
        }
        for (String item : spec.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new MpiException(ErrorClass.ERR_ARG, "sim setting '" + item + "' is not key=value");
            }
            String key = item.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = item.substring(eq + 1).trim();
            try {
                c = switch (key) {
                    case "strategy" -> c.withStrategy(value);
                    case "packet" -> c.withPacketBytes(Integer.parseInt(value));
                    case "hpus" -> c.withHpus(Integer.parseInt(value));
                    case "delta-r" -> c.withDeltaR(Long.parseLong(value));
                    case "nic-memory" -> c.withNicMemory(Long.parseLong(value));
                    case "iovec" -> c.withIovecEntries(Integer.parseInt(value));
                    case "ooo-window" -> c.withOutOfOrder(Integer.parseInt(value), c.seed);
                    case "seed" -> c.withOutOfOrder(c.oooWindow, Long.parseLong(value));
                    case "drop" -> c.withFaults(c.faults.withDrop(Double.parseDouble(value)));
                    case "duplicate" -> c.withFaults(c.faults.withDuplicate(Double.parseDouble(value)));
                    case "retransmits" -> c.withFaults(c.faults.withRetransmits(Integer.parseInt(value)));
                    case "preset" -> c.withTiming(TimingConfig.preset(value).with(overridesOf(c.timing)));
                    default -> {
                        if (TimingParam.byKey(key) == null) {
                            throw new MpiException(ErrorClass.ERR_ARG, "unknown sim setting '" + key + "'; known:"
                                    + " strategy, packet, hpus, delta-r, nic-memory, iovec, ooo-window, seed, drop,"
                                    + " duplicate, retransmits, preset and the timing parameters (jspin sim --print-config)");
                        }
                        yield c.withTiming(c.timing.with(key + "=" + value));
                    }
                };
            } catch (NumberFormatException e) {
                throw new MpiException(ErrorClass.ERR_ARG, "sim setting " + key + " needs a number, got '" + value + "'");
            }
        }
        return c;
    }

    /** @return the timing parameters {@code t} sets apart from its preset's values */
    private static Map<TimingParam, Double> overridesOf(TimingConfig t) {
        TimingConfig base = TimingConfig.preset(t.preset());
        Map<TimingParam, Double> m = new LinkedHashMap<>();
        for (TimingParam p : TimingParam.values()) {
            if (t.get(p) != base.get(p)) {
                m.put(p, t.get(p));
            }
        }
        return m;
    }

    /** @return every parameter with its value and where its default comes from, in a stable order */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("strategy", strategy + "  (default auto: specialized where the shape allows, else rw-cp, seek, hpu-local"
                + " as NIC memory allows, else host)");
        m.put("packet", packetBytes + " B  (default 2048: the paper's packets; PsPIN's inbound default is 1024)");
        m.put("hpus", hpus + "  (default 32: PsPIN's 4 clusters x 8 cores, as the paper's evaluation)");
        m.put("delta-r", (deltaR == 0 ? "model" : deltaR + " B") + "  (default: chosen per message by the paper's"
                + " TC model within epsilon, then doubled until the checkpoints fit the NIC memory)");
        m.put("nic-memory", nicMemoryBytes + " B  (default 4 MiB: PsPIN's L2 handler memory)");
        m.put("iovec", iovecEntries + " entries  (default 32: the ConnectX-3 limit the paper quotes)");
        m.put("ooo-window", oooWindow + " packets  (default 1: in order, as the paper assumes)");
        m.put("seed", Long.toString(seed));
        m.put("drop", faults.drop() + "  (default 0: a lossless link, as the paper assumes)");
        m.put("duplicate", faults.duplicate() + "  (default 0)");
        m.put("retransmits", faults.retransmits() + "  (default 7: InfiniBand RC's 3-bit retry count)");
        m.putAll(timing.describe());
        return m;
    }
}
