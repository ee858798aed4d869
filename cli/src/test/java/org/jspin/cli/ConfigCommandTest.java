package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;

import org.jspin.settings.Setting;
import org.junit.jupiter.api.Test;

/** {@code jspin config}: every layer's settings, each with its value and where it came from. */
class ConfigCommandTest {
    @Test
    void everySettingIsListedOnceWithItsValueAndOrigin() {
        String flush = "jspin.netty.flushBytes";
        String before = System.getProperty(flush);
        System.setProperty(flush, "4096");
        try {
            InProcess.Run r = run("config");
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
        } finally {
            restore(flush, before);
        }
    }

    @Test
    void aMalformedValueIsPrintedAsItsErrorAndTheStatusIsTwo() {
        String spin = "jspin.wait.spin.us";
        String before = System.getProperty(spin);
        System.setProperty(spin, "soon");
        try {
            InProcess.Run r = run("config");
            assertEquals(2, r.status(), r.out());
            assertTrue(r.out().contains("ERR_ARG: -Djspin.wait.spin.us must be an integer in [0, 60000000], got 'soon'"),
                    r.out());
            assertTrue(r.out().contains("jspin.kernels.loadsFirst"), "the other settings are still listed");
        } finally {
            restore(spin, before);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }
}
