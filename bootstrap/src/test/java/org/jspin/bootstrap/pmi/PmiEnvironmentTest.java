package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class PmiEnvironmentTest {
    private static String refusal(Runnable r) {
        MpiException e = assertThrows(MpiException.class, r::run);
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        return e.reason();
    }

    @Test
    void integerAcceptsPaddedNumbersFromTheMinimumUp() {
        assertEquals(7, PmiEnvironment.integer("PMI_RANK", " 7\n", 0, "a rank"));
        assertEquals(1, PmiEnvironment.integer("PMI_SIZE", "1", 1, "a job size"));
        assertEquals("PMI_SIZE='0' is not a job size (an integer >= 1)",
                refusal(() -> PmiEnvironment.integer("PMI_SIZE", "0", 1, "a job size")));
        assertEquals("PMI_FD='x\\n' is not a descriptor (an integer >= 0)",
                refusal(() -> PmiEnvironment.integer("PMI_FD", "x\n", 0, "a descriptor")));
    }

    @Test
    void requireNamesTheVariableThatNeedsIt() {
        assertEquals("3", PmiEnvironment.require(Map.of("PMI_SIZE", "3"), "PMI_SIZE", "PMI_FD"));
        assertEquals("PMI_FD is set but PMI_SIZE is missing",
                refusal(() -> PmiEnvironment.require(Map.of(), "PMI_SIZE", "PMI_FD")));
    }

    @Test
    void hostPortTakesNamesAndBracketedV6Literals() {
        assertEquals(new InetSocketAddress("127.0.0.1", 5000), PmiEnvironment.hostPort("127.0.0.1:5000"));
        assertEquals(new InetSocketAddress("::1", 65535), PmiEnvironment.hostPort("[::1]:65535"));
        for (String bad : new String[] {"5000", ":5000", "host:", "host:0", "host:65536", "host:port"}) {
            assertEquals("PMI_PORT='" + bad + "' is not host:port", refusal(() -> PmiEnvironment.hostPort(bad)));
        }
    }

    @Test
    void connectRefusesAnEnvironmentWithoutAProcessManager() {
        assertTrue(refusal(() -> PmiEnvironment.connect(Map.of(), Duration.ofSeconds(1))).startsWith("neither PMI_FD nor PMI_PORT"));
        assertEquals("PMI_RANK=3 is not below PMI_SIZE=3", refusal(() -> PmiEnvironment.connect(
                Map.of("PMI_FD", "9", "PMI_SIZE", "3", "PMI_RANK", "3"), Duration.ofSeconds(1))));
    }
}
