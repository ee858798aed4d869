package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.jspin.settings.Setting;
import org.junit.jupiter.api.Test;

/** {@code jspin config}: every layer's settings, each with its value and where it came from. */
class ConfigCommandTest {
    @Test
    void everySettingIsListedOnceWithItsValueAndOrigin() {
        InProcess.Run r = withProperty("jspin.netty.flushBytes", "4096", () -> run("config"));
        assertEquals(0, r.status(), r.err());
        int settings = 0;
        for (List<Setting<?>> layer : ConfigCommand.LAYERS.values()) {
            for (Setting<?> s : layer) {
                settings++;
                long lines = r.out().lines().filter(l -> l.startsWith(s.toString() + " ")).count();
                assertEquals(1, lines, s + " in:\n" + r.out());
            }
        }
        assertTrue(settings >= 25, "every layer's settings: " + settings);
        assertTrue(Pattern.compile("(?m)^jspin\\.netty\\.flushBytes +4096 +property ").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^jspin\\.wait\\.spin\\.us +2000 +default ").matcher(r.out()).find(), r.out());
    }

    @Test
    void aMalformedValueIsPrintedAsItsErrorAndTheStatusIsTwo() {
        InProcess.Run r = withProperty("jspin.wait.spin.us", "soon", () -> run("config"));
        assertEquals(2, r.status(), r.out());
        assertTrue(r.out().contains("ERR_ARG: -Djspin.wait.spin.us must be an integer in [0, 60000000], got 'soon'"),
                r.out());
        assertTrue(r.out().contains("jspin.kernels.loadsFirst"), "the other settings are still listed");
    }

    @Test
    void theLaunchSettingsAreListedWithTheirVariables() {
        InProcess.Run r = withProperty("jspin.connect.timeout", "7", () -> run("config"));
        assertEquals(0, r.status(), r.err());
        assertTrue(Pattern.compile("(?m)^# launch ").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^jspin\\.connect\\.timeout \\(JSPIN_CONNECT_TIMEOUT\\) +7 +property ").matcher(r.out()).find(),
                r.out());
        assertTrue(Pattern.compile("(?m)^jspin\\.bind \\(JSPIN_BIND\\) +\\S+ +(default|environment) ").matcher(r.out()).find(),
                r.out());
        InProcess.Run bad = withProperty("jspin.connect.timeout", "0", () -> run("config"));
        assertEquals(2, bad.status(), bad.out());
        assertTrue(bad.out().contains("ERR_ARG: -Djspin.connect.timeout must be an integer in [1, 2147483647], got '0'"),
                bad.out());
    }

    /** @return what {@code command} returns with system property {@code property} set to {@code value}, put back after */
    private static InProcess.Run withProperty(String property, String value, Supplier<InProcess.Run> command) {
        String before = System.getProperty(property);
        System.setProperty(property, value);
        try {
            return command.get();
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
    }
}
