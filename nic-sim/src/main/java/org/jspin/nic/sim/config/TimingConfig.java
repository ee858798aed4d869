package org.jspin.nic.sim.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The timing model's parameters ({@link TimingParam}), validated once, immutable, printable with each
 * value's source. Built from a preset ({@code paper} or {@code banked}), then a configuration file
 * (Java properties, one {@code key=value} a line), then overrides, each later one winning.
 */
public final class TimingConfig {
    /** The paper's evaluation: 1-cycle NIC memory, 50 GiB/s, twice as many channels as HPUs, no contention. */
    public static final TimingConfig PAPER = new TimingConfig("paper", defaults());
    /**
     * In the spirit of PsPIN's L2 handler memory, reached over the cluster interconnect: multi-cycle,
     * fewer banks, and accesses queue at their bank. Every value here is assumed (PsPIN's paper gives
     * no L2 latency we could read): 10 cycles, 16 banks, 32 GiB/s (a 256-bit port at 1 GHz).
     */
    public static final TimingConfig BANKED = PAPER.with(Map.of(TimingParam.MEMORY_LATENCY, 10.0,
            TimingParam.MEMORY_BANKS, 16.0, TimingParam.MEMORY_BANDWIDTH, 32.0, TimingParam.MEMORY_CONTENTION, 1.0),
            "banked");

    private final String preset;
    private final double[] values;
    private final String[] sources;

    private TimingConfig(String preset, double[] values) {
        this(preset, values, defaultSources());
    }

    private TimingConfig(String preset, double[] values, String[] sources) {
        this.preset = preset;
        this.values = values;
        this.sources = sources;
    }

    private static double[] defaults() {
        double[] v = new double[TimingParam.values().length];
        for (TimingParam p : TimingParam.values()) {
            v[p.ordinal()] = p.defaultValue();
        }
        return v;
    }

    private static String[] defaultSources() {
        String[] s = new String[TimingParam.values().length];
        for (TimingParam p : TimingParam.values()) {
            s[p.ordinal()] = p.source();
        }
        return s;
    }

    /** @return the preset called {@code name} ({@code paper} or {@code banked}) */
    public static TimingConfig preset(String name) {
        return switch (name) {
            case "paper" -> PAPER;
            case "banked" -> BANKED;
            default -> throw new MpiException(ErrorClass.ERR_ARG, "unknown timing preset '" + name
                    + "'; paper or banked");
        };
    }

    /** @return the value of {@code p} */
    public double get(TimingParam p) {
        return values[p.ordinal()];
    }

    /** @return the preset this configuration started from */
    public String preset() {
        return preset;
    }

    /**
     * @return a copy with {@code overrides} applied, checked against each parameter's range
     * @throws MpiException ERR_ARG naming the parameter and the value out of range
     */
    public TimingConfig with(Map<TimingParam, Double> overrides) {
        return with(overrides, preset);
    }

    private TimingConfig with(Map<TimingParam, Double> overrides, String name) {
        double[] v = values.clone();
        String[] s = sources.clone();
        for (Map.Entry<TimingParam, Double> e : overrides.entrySet()) {
            TimingParam p = e.getKey();
            double x = e.getValue();
            if (!(x >= p.min() && x <= p.max())) {
                throw new MpiException(ErrorClass.ERR_ARG, "timing parameter " + p.key() + " must be in [" + p.min()
                        + ", " + p.max() + "] " + p.unit() + ", got " + x);
            }
            v[p.ordinal()] = x;
            s[p.ordinal()] = name.equals(preset) ? "set" : "the " + name + " preset (assumed; see TimingConfig.BANKED)";
        }
        return new TimingConfig(name, v, s);
    }

    /**
     * @return a copy with {@code key=value} overrides ({@code memory-latency=10}, say)
     * @throws MpiException ERR_ARG naming an unknown key or a value that is not a number
     */
    public TimingConfig with(String... assignments) {
        Map<TimingParam, Double> m = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new MpiException(ErrorClass.ERR_ARG, "timing override '" + a + "' is not key=value");
            }
            m.put(param(a.substring(0, eq).trim()), number(a.substring(0, eq).trim(), a.substring(eq + 1).trim()));
        }
        return with(m);
    }

    /**
     * @return a copy with the parameters of a properties file applied ({@code preset=banked} first, if
     *         present, starts from that preset)
     */
    public static TimingConfig load(Path file) {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            props.load(r);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot read timing configuration " + file + ": " + e.getMessage());
        }
        TimingConfig c = preset(props.getProperty("preset", "paper").trim());
        Map<TimingParam, Double> m = new LinkedHashMap<>();
        for (String key : props.stringPropertyNames()) {
            if (!key.equals("preset")) {
                m.put(param(key), number(key, props.getProperty(key).trim()));
            }
        }
        return c.with(m);
    }

    private static TimingParam param(String key) {
        TimingParam p = TimingParam.byKey(key);
        if (p == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "unknown timing parameter '" + key + "'; known: "
                    + Arrays.stream(TimingParam.values()).map(TimingParam::key).toList());
        }
        return p;
    }

    private static double number(String key, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "timing parameter " + key + " needs a number, got '" + value + "'");
        }
    }

    /** @return every parameter as "value unit (source)", by key, in a stable order */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("preset", preset);
        for (TimingParam p : TimingParam.values()) {
            m.put(p.key(), format(values[p.ordinal()]) + " " + p.unit() + "  (" + sources[p.ordinal()] + ")");
        }
        return m;
    }

    /** @return every parameter's value by key (for JSON) */
    public Map<String, Object> values() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("preset", preset);
        for (TimingParam p : TimingParam.values()) {
            m.put(p.key(), values[p.ordinal()]);
        }
        return m;
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimingConfig t && t.preset.equals(preset) && Arrays.equals(t.values, values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values) * 31 + preset.hashCode();
    }

    @Override
    public String toString() {
        return "timing " + values();
    }
}
