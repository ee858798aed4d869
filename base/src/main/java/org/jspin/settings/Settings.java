package org.jspin.settings;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where settings come from: the system properties and the environment, as one immutable snapshot.
 * Each layer reads its settings record from it once, at start; nothing else in jspin reads a
 * {@code jspin.*} property. {@link #current()} is this JVM's.
 */
public final class Settings {
    private final Map<String, String> properties;
    private final Map<String, String> environment;

    private Settings(Map<String, String> properties, Map<String, String> environment) {
        this.properties = Map.copyOf(properties);
        this.environment = Map.copyOf(environment);
    }

    /** @return settings from these properties and environment variables (a test's, a command's) */
    public static Settings of(Map<String, String> properties, Map<String, String> environment) {
        return new Settings(Objects.requireNonNull(properties, "properties"), Objects.requireNonNull(environment, "environment"));
    }

    /**
     * @return this JVM's {@code jspin.*} system properties and {@code JSPIN_*} environment variables,
     *         as they are now: a layer takes this once, when it starts, and keeps what it read
     */
    public static Settings current() {
        return fromProcess();
    }

    private static Settings fromProcess() {
        Properties sys = System.getProperties();
        Map<String, String> props = new HashMap<>();
        for (String name : sys.stringPropertyNames()) {
            if (name.startsWith("jspin.")) {
                props.put(name, sys.getProperty(name));
            }
        }
        Map<String, String> env = new HashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("JSPIN_")) {
                env.put(k, v);
            }
        });
        return new Settings(props, env);
    }

    /**
     * @return the setting's value: the property if given, else its environment variable if it has
     *         one and it is given, else its default
     * @throws org.jspin.error.MpiException ERR_ARG naming the property (or variable) and the value if malformed
     */
    public <T> T get(Setting<T> setting) {
        return effective(setting).value();
    }

    /** @return the setting's value and where it came from */
    public <T> Effective<T> effective(Setting<T> setting) {
        String p = given(properties.get(setting.property()));
        if (p != null) {
            return new Effective<>(setting, setting.parse(p, "-D" + setting.property()), Origin.PROPERTY);
        }
        if (setting.environment() != null) {
            String e = given(environment.get(setting.environment()));
            if (e != null) {
                return new Effective<>(setting, setting.parse(e, setting.environment()), Origin.ENVIRONMENT);
            }
        }
        return new Effective<>(setting, setting.fallback(), Origin.DEFAULT);
    }

    private static String given(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Where a setting's value came from. */
    public enum Origin {
        /** Nobody gave it. */
        DEFAULT,
        /** A system property. */
        PROPERTY,
        /** An environment variable. */
        ENVIRONMENT;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A setting's value as read.
     *
     * @param setting the setting
     * @param value   its value (null: not set, where the setting allows that)
     * @param origin  where the value came from
     * @param <T>     the value's type
     */
    public record Effective<T>(Setting<T> setting, T value, Origin origin) {
    }
}
