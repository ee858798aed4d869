package org.jspin.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A setting's value: the property, else its variable, else the default; malformed text an error naming where it came from. */
class SettingsTest {
    private static final Setting<Long> COUNT = Setting.number("jspin.test.count", 7, 1, 100, "a count").orEnvironment("JSPIN_TEST_COUNT");
    private static final Setting<Double> RATIO = Setting.decimal("jspin.test.ratio", 0.5, 0.001, 1, "a ratio");
    private static final Setting<String> KIND = Setting.choice("jspin.test.kind", "one", List.of("one", "Two"), "a kind");
    private static final Setting<String> NOTE = Setting.text("jspin.test.note", null, "a note");
    private static final Setting<Boolean> FLAG = Setting.flag("jspin.test.flag", false, "a flag");

    private static Settings of(Map<String, String> properties, Map<String, String> environment) {
        return Settings.of(properties, environment);
    }

    @Test
    void thePropertyWinsOverTheVariableWhichWinsOverTheDefault() {
        assertEquals(new Settings.Effective<>(COUNT, 7L, Settings.Origin.DEFAULT), of(Map.of(), Map.of()).effective(COUNT));
        assertEquals(new Settings.Effective<>(COUNT, 9L, Settings.Origin.ENVIRONMENT),
                of(Map.of(), Map.of("JSPIN_TEST_COUNT", " 9 ")).effective(COUNT));
        assertEquals(new Settings.Effective<>(COUNT, 11L, Settings.Origin.PROPERTY),
                of(Map.of("jspin.test.count", "11"), Map.of("JSPIN_TEST_COUNT", "9")).effective(COUNT));
        assertEquals(7L, of(Map.of("jspin.test.count", "  "), Map.of()).get(COUNT), "blank is unset");
    }

    @Test
    void eachKindTakesItsOwnText() {
        Settings s = of(Map.of("jspin.test.ratio", "0.25", "jspin.test.kind", "TWO", "jspin.test.note", "a,b",
                "jspin.test.flag", "True"), Map.of());
        assertEquals(0.25, s.get(RATIO));
        assertEquals("Two", s.get(KIND), "the choice as listed");
        assertEquals("a,b", s.get(NOTE));
        assertTrue(s.get(FLAG));
        assertNull(of(Map.of(), Map.of()).get(NOTE));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"0", "101", "-3", "ten", "7.5", "99999999999999999999"})
    void aCountOutOfRangeOrNotANumberIsRefusedNamingThePropertyAndTheText(String text) {
        MpiException e = assertThrows(MpiException.class, () -> of(Map.of("jspin.test.count", text), Map.of()).get(COUNT));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertEquals("-Djspin.test.count must be an integer in [1, 100], got '" + text + "'", e.reason());
    }

    @Test
    void aMalformedVariableIsNamedAsTheVariable() {
        MpiException e = assertThrows(MpiException.class, () -> of(Map.of(), Map.of("JSPIN_TEST_COUNT", "many")).get(COUNT));
        assertEquals("JSPIN_TEST_COUNT must be an integer in [1, 100], got 'many'", e.reason());
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"NaN", "Infinity", "0", "1.5", "half"})
    void otherKindsRefuseWhatTheyCannotTake(String text) {
        assertThrows(MpiException.class, () -> of(Map.of("jspin.test.ratio", text), Map.of()).get(RATIO));
        assertThrows(MpiException.class, () -> of(Map.of("jspin.test.kind", text), Map.of()).get(KIND));
        assertThrows(MpiException.class, () -> of(Map.of("jspin.test.flag", text), Map.of()).get(FLAG));
    }

    @Test
    void theProcessSettingsAreTakenWhenAsked() {
        String before = System.getProperty("jspin.test.count");
        System.setProperty("jspin.test.count", "42");
        try {
            assertEquals(42L, Settings.current().get(COUNT), "taken now, not at some earlier first use");
        } finally {
            if (before == null) {
                System.clearProperty("jspin.test.count");
            } else {
                System.setProperty("jspin.test.count", before);
            }
        }
    }
}
