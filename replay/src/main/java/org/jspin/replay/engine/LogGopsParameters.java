package org.jspin.replay.engine;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * LogGOPS's parameters in LogGOPSim's units: L, o and g in nanoseconds; G and O per byte, held in
 * picoseconds per byte so that fractions such as 200 Gbit/s's G = 0.04 ns/B stay exact; S in bytes
 * (messages larger than S go by rendezvous). Sources of the defaults are in docs/replay.md.
 *
 * @param latency  L, ns
 * @param overhead o, ns
 * @param gap      g, ns
 * @param gapPerBytePs      G, ps per byte
 * @param overheadPerBytePs O, ps per byte
 * @param eagerLimit        S, bytes
 */
public record LogGopsParameters(long latency, long overhead, long gap, long gapPerBytePs, long overheadPerBytePs,
                                long eagerLimit) {
    /** LogGOPSim's L default (loggopsim_cmdline.ggo), ns. */
    public static final long DEFAULT_L = 2500;
    /** LogGOPSim's o default (loggopsim_cmdline.ggo), ns. */
    public static final long DEFAULT_O_NS = 1500;
    /** LogGOPSim's g default (loggopsim_cmdline.ggo), ns. */
    public static final long DEFAULT_G_NS = 1000;
    /** The paper's 200 Gbit/s NIC: 8 bits / 200 Gbit/s = 0.04 ns per byte, in ps per byte. */
    public static final long DEFAULT_G_PS_PER_BYTE = 40;
    /** LogGOPSim's O default (loggopsim_cmdline.ggo), ps per byte. */
    public static final long DEFAULT_O_PS_PER_BYTE = 0;
    /** LogGOPSim's S default (loggopsim_cmdline.ggo), bytes. */
    public static final long DEFAULT_S = 65535;

    private static final long PS_PER_NS = 1000;

    /** Validates the parameters. */
    public LogGopsParameters {
        if (latency < 0 || overhead < 0 || gap < 0 || gapPerBytePs < 0 || overheadPerBytePs < 0 || eagerLimit < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "LogGOPS parameters must not be negative: " + describe(latency,
                    overhead, gap, gapPerBytePs, overheadPerBytePs, eagerLimit));
        }
    }

    /** @return the defaults: LogGOPSim's L, o, g, O and S, and the paper's network's G */
    public static LogGopsParameters defaults() {
        return new LogGopsParameters(DEFAULT_L, DEFAULT_O_NS, DEFAULT_G_NS, DEFAULT_G_PS_PER_BYTE, DEFAULT_O_PS_PER_BYTE,
                DEFAULT_S);
    }

    /** @return whole-nanosecond parameters, as LogGOPSim's command line takes them */
    public static LogGopsParameters ofNanos(long l, long o, long g, long bigG, long bigO, long s) {
        return new LogGopsParameters(l, o, g, bigG * PS_PER_NS, bigO * PS_PER_NS, s);
    }

    /**
     * Overrides some of these parameters.
     *
     * @param spec {@code L=..,o=..,g=..,G=..,O=..,S=..} (any subset; G and O may have up to three decimals)
     * @return the parameters with those replaced
     * @throws MpiException ERR_ARG naming a malformed or unknown entry
     */
    public LogGopsParameters with(String spec) {
        long[] v = {latency, overhead, gap, gapPerBytePs, overheadPerBytePs, eagerLimit};
        for (String entry : spec.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) continue;
            int eq = e.indexOf('=');
            if (eq <= 0) throw new MpiException(ErrorClass.ERR_ARG, "--loggops entry '" + e + "' is not NAME=VALUE");
            String name = e.substring(0, eq).trim();
            String value = e.substring(eq + 1).trim();
            switch (name) {
                case "L" -> v[0] = whole(name, value);
                case "o" -> v[1] = whole(name, value);
                case "g" -> v[2] = whole(name, value);
                case "G" -> v[3] = picos(name, value);
                case "O" -> v[4] = picos(name, value);
                case "S" -> v[5] = whole(name, value);
                default -> throw new MpiException(ErrorClass.ERR_ARG, "--loggops parameter '" + name
                        + "' is not one of L, o, g, G, O, S");
            }
        }
        return new LogGopsParameters(v[0], v[1], v[2], v[3], v[4], v[5]);
    }

    /** @return G in ns per byte (as a decimal) */
    public BigDecimal gapPerByteNs() { return BigDecimal.valueOf(gapPerBytePs, 3).stripTrailingZeros(); }

    /** @return O in ns per byte (as a decimal) */
    public BigDecimal overheadPerByteNs() { return BigDecimal.valueOf(overheadPerBytePs, 3).stripTrailingZeros(); }

    /** @return the parameters by name, in LogGOPSim's units, for a figure's caption or JSON */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("L", Long.toString(latency));
        m.put("o", Long.toString(overhead));
        m.put("g", Long.toString(gap));
        m.put("G", gapPerByteNs().toPlainString());
        m.put("O", overheadPerByteNs().toPlainString());
        m.put("S", Long.toString(eagerLimit));
        return m;
    }

    @Override
    public String toString() {
        return describe(latency, overhead, gap, gapPerBytePs, overheadPerBytePs, eagerLimit);
    }

    /** (bytes - 1) * G in whole ns, as LogGOPSim charges it (so -G for an empty message). */
    long gapBytes(long bytes) { return Math.floorDiv((bytes - 1) * gapPerBytePs, PS_PER_NS); }

    /** (bytes - 1) * O in whole ns, as LogGOPSim charges it. */
    long overheadBytes(long bytes) { return Math.floorDiv((bytes - 1) * overheadPerBytePs, PS_PER_NS); }

    private static String describe(long l, long o, long g, long gps, long ops, long s) {
        return "L=" + l + ",o=" + o + ",g=" + g + ",G=" + BigDecimal.valueOf(gps, 3).stripTrailingZeros().toPlainString()
                + ",O=" + BigDecimal.valueOf(ops, 3).stripTrailingZeros().toPlainString() + ",S=" + s;
    }

    private static long whole(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "--loggops " + name + "=" + value + " is not a whole number of "
                    + (name.equals("S") ? "bytes" : "ns"));
        }
    }

    private static long picos(String name, String value) {
        try {
            BigDecimal ps = new BigDecimal(value).movePointRight(3);
            return ps.longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "--loggops " + name + "=" + value
                    + " is not a number of ns per byte with at most three decimals");
        }
    }
}
