package org.jspin.transport.netty.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.settings.Settings;
import org.junit.jupiter.api.Test;

/** The launch layer's settings: names, defaults, accepted forms, and the refusal of a malformed value. */
class LaunchSettingsTest {
    private static LaunchSettings of(Map<String, String> properties, Map<String, String> env) {
        return LaunchSettings.from(Settings.of(properties, env));
    }

    @Test
    void unsetOrBlankIsLoopbackAndThirtySeconds() {
        assertEquals(new LaunchSettings("127.0.0.1", Duration.ofSeconds(30)), of(Map.of(), Map.of()));
        assertEquals(new LaunchSettings(NettyLaunch.LOOPBACK, NettyLaunch.DEFAULT_TIMEOUT),
                of(Map.of(), Map.of("JSPIN_BIND", " ", "JSPIN_CONNECT_TIMEOUT", "")));
    }

    @Test
    void theVariablesAreReadAsGivenAndAPropertyWins() {
        assertEquals(new LaunchSettings("[::1]:7000", Duration.ofSeconds(7)),
                of(Map.of(), Map.of("JSPIN_BIND", "[::1]:7000", "JSPIN_CONNECT_TIMEOUT", " 7 ")));
        assertEquals(new LaunchSettings("10.0.0.1", Duration.ofSeconds(2)),
                of(Map.of("jspin.bind", "10.0.0.1", "jspin.connect.timeout", "2"),
                        Map.of("JSPIN_BIND", "10.0.0.2", "JSPIN_CONNECT_TIMEOUT", "9")));
        assertEquals(Duration.ofSeconds(Integer.MAX_VALUE),
                of(Map.of(), Map.of("JSPIN_CONNECT_TIMEOUT", Integer.toString(Integer.MAX_VALUE))).connectTimeout());
    }

    @Test
    void aMalformedTimeoutIsRefusedNamingTheVariableAndTheValue() {
        for (String bad : new String[] {"0", "-3", "soon", "1.5", "2147483648"}) {
            MpiException e = assertThrows(MpiException.class, () -> of(Map.of(), Map.of("JSPIN_CONNECT_TIMEOUT", bad)));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertEquals("JSPIN_CONNECT_TIMEOUT must be an integer in [1, 2147483647], got '" + bad + "'", e.reason());
        }
    }

    @Test
    void fromTheEnvironmentALauncherGaveReadsThatMap() {
        assertEquals(new LaunchSettings("127.0.0.2", Duration.ofSeconds(5)),
                LaunchSettings.from(Map.of("JSPIN_BIND", "127.0.0.2", "JSPIN_CONNECT_TIMEOUT", "5")));
    }
}
