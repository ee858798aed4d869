package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The settings a user gives outside the program: read by {@link MpiOptions#fromEnvironment}, which
 * {@code Mpi.init} calls first, so that a malformed one of any layer below is an argument error
 * naming it, never a class that fails to load.
 */
class MpiOptionsTest {
    @ParameterizedTest(name = "{0}=''{1}''")
    @CsvSource({"jspin.summary,yes", "jspin.warmup,off", "jspin.eager.credit,lots", "jspin.wait.spin.us,-1",
            "jspin.progress.spins,many", "jspin.kernels.loadsFirst,nope"})
    void aMalformedSettingOfThisLayerOrBelowIsAnArgumentErrorNamingIt(String property, String value) {
        withProperty(property, value, () -> {
            MpiException e = assertThrows(MpiException.class, MpiOptions::fromEnvironment);
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains("-D" + property) && e.getMessage().contains("'" + value + "'"), e.getMessage());
        });
    }

    @ParameterizedTest(name = "{0}=''{1}''")
    @CsvSource({"jspin.backend,sim,sim", "jspin.fabric,shm,shm", "jspin.summary,TRUE,true"})
    void givenValuesAreTaken(String property, String value, String expected) {
        withProperty(property, value, () -> {
            MpiOptions o = MpiOptions.fromEnvironment();
            assertEquals(expected, switch (property) {
                case "jspin.backend" -> o.backend();
                case "jspin.fabric" -> o.fabric();
                default -> Boolean.toString(o.summary());
            });
        });
    }

    @Test
    void theTraceDirectoryComesFromJspinTraceAndEveryCopyKeepsIt() {
        assertEquals("", MpiOptions.defaults().trace());
        withProperty("jspin.trace", " /tmp/t ", () -> {
            MpiOptions o = MpiOptions.fromEnvironment();
            assertEquals("/tmp/t", o.trace());
            assertEquals("/tmp/t", o.withBackend("sim").withFabric("shm").withSummary(true)
                    .withMeters(new SimpleMeterRegistry()).withNic(o.nic()).trace());
            assertEquals("", o.withTrace(null).trace());
        });
        assertTrue(MpiOptions.ALL.contains(MpiOptions.TRACE));
        assertEquals("JSPIN_TRACE", MpiOptions.TRACE.environment());
    }

    /** Runs {@code test} with system property {@code property} set to {@code value}, then puts it back. */
    private static void withProperty(String property, String value, Runnable test) {
        String before = System.getProperty(property);
        System.setProperty(property, value);
        try {
            test.run();
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
    }
}
