package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernels' comparison switches: unset, true or false, or an argument error naming what was given. */
class KernelSwitchesTest {
    @Test
    void unsetIsTheDefaultAndTrueOrFalseAreTaken() {
        assertTrue(KernelSwitches.flag("jspin.kernels.loadsFirst", null, true));
        assertFalse(KernelSwitches.flag("jspin.kernels.loadsFirst", null, false));
        assertTrue(KernelSwitches.flag("jspin.kernels.loadsFirst", "true", false));
        assertFalse(KernelSwitches.flag("jspin.kernels.loadsFirst", " FALSE ", true));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "no", "0", "flase"})
    void anythingElseIsAnArgumentErrorNamingTheSwitchAndTheValue(String value) {
        MpiException e = assertThrows(MpiException.class,
                () -> KernelSwitches.flag("jspin.kernels.nativeCopy", value, true));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("jspin.kernels.nativeCopy") && e.getMessage().contains("'" + value + "'"),
                e.getMessage());
    }

    /**
     * A bad switch fails the commit that would compile a kernel, naming the switch: a failed kernel
     * compilation otherwise falls back to a slower kernel and the mistake would go unseen.
     */
    @Test
    void aBadSwitchFailsTheCommitThatCompilesAKernelRatherThanFallingBack() {
        String before = System.getProperty(KernelSwitches.LOADS_FIRST);
        System.setProperty(KernelSwitches.LOADS_FIRST, "nope");
        try {
            // a shape no other test compiles, so that no cached kernel answers first
            Datatype t = Datatype.hvector(3, 1, 9_973, Datatype.contiguous(4_093, Datatype.BYTE));
            MpiException e = assertThrows(MpiException.class, () -> {
                Datatype c = t.commit();
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment typed = arena.allocate(3 * 9_973);
                    c.cursor(1, typed).pack(arena.allocate(3 * 4_093), 0, 3 * 4_093);
                }
            });
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains(KernelSwitches.LOADS_FIRST) && e.getMessage().contains("'nope'"),
                    e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(KernelSwitches.LOADS_FIRST);
            } else {
                System.setProperty(KernelSwitches.LOADS_FIRST, before);
            }
        }
    }
}
