package org.jspin.transport.netty.join;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * The launch layer's settings: where a launched rank listens and how long its start-up waits for
 * peers. Read once, as {@link LaunchEnvironment} makes the job, from the system properties and the
 * environment the launcher handed the process.
 *
 * @param bind           the address ranks listen on, as given (checked by {@link NettyLaunch}): {@code host},
 *                       or {@code host:port} for rank r to listen on port + r
 * @param connectTimeout how long start-up waits for the endpoint exchange and every peer's connection
 */
public record LaunchSettings(String bind, Duration connectTimeout) {
    /** {@code -Djspin.bind} or {@code JSPIN_BIND}. */
    public static final Setting<String> BIND = Setting.text("jspin.bind", NettyLaunch.LOOPBACK,
            "the address ranks listen on: host, or host:port for rank r to listen on port + r").orEnvironment("JSPIN_BIND");
    /** {@code -Djspin.connect.timeout} or {@code JSPIN_CONNECT_TIMEOUT}. */
    public static final Setting<Long> CONNECT_TIMEOUT = Setting.number("jspin.connect.timeout",
            NettyLaunch.DEFAULT_TIMEOUT.toSeconds(), 1, Integer.MAX_VALUE,
            "seconds start-up waits for the endpoint exchange and every peer").orEnvironment("JSPIN_CONNECT_TIMEOUT");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(BIND, CONNECT_TIMEOUT);

    /**
     * @return the settings in {@code settings}
     * @throws org.jspin.error.MpiException ERR_ARG naming the property (or variable) and the value if one is malformed
     */
    public static LaunchSettings from(Settings settings) {
        return new LaunchSettings(settings.get(BIND), Duration.ofSeconds(settings.get(CONNECT_TIMEOUT)));
    }

    /**
     * @param env the environment a launcher gave this process (not necessarily this JVM's: a test's)
     * @return the settings from this layer's system properties and {@code env}
     * @throws org.jspin.error.MpiException ERR_ARG naming the property (or variable) and the value if one is malformed
     */
    public static LaunchSettings from(Map<String, String> env) {
        Map<String, String> properties = new HashMap<>();
        for (Setting<?> s : ALL) {
            String value = System.getProperty(s.property());
            if (value != null) {
                properties.put(s.property(), value);
            }
        }
        return from(Settings.of(properties, env));
    }
}
