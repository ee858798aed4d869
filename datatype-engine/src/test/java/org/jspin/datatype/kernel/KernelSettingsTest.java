package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.settings.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernels' switches: unset, true or false, or an argument error naming what was given. */
class KernelSettingsTest {
    private static KernelSettings of(Map<String, String> properties) {
        return KernelSettings.from(Settings.of(properties, Map.of()));
    }

    @Test
    void unsetIsTheDefaultAndTrueOrFalseAreTaken() {
        assertEquals(new KernelSettings(false, false, true, true), of(Map.of()));
        assertEquals(new KernelSettings(true, true, false, false), of(Map.of("jspin.kernels.scalar", "true",
                "jspin.kernels.dynamic", "TRUE", "jspin.kernels.nativeCopy", " false ", "jspin.kernels.loadsFirst", "False")));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"no", "0", "flase"})
    void anythingElseIsAnArgumentErrorNamingTheSwitchAndTheValue(String value) {
        MpiException e = assertThrows(MpiException.class, () -> of(Map.of("jspin.kernels.nativeCopy", value)));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("-Djspin.kernels.nativeCopy") && e.getMessage().contains("'" + value + "'"),
                e.getMessage());
    }
}
