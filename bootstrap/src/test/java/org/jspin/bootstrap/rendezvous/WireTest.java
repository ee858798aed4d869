package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** The lines {@link Wire} builds for the server, and its check of a job id and secret. */
class WireTest {
    private static String ascii(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    @Test
    void theEndpointListNamesEachRankInOrder() {
        assertEquals("JSPIN-RDV/2 ENDPOINTS 2\nEP 0 a:1\nEP 1 b%20c:2\nJSPIN-RDV/2 END\n",
                ascii(Wire.endpointsMessage(List.of("a:1", "b c:2"))));
    }

    @Test
    void anErrorLineIsEncodedAndClippedUnderTheFieldLimit() {
        assertEquals("JSPIN-RDV/2 ERROR wrong%20secret\n", ascii(Wire.errorLine("wrong secret")));
        String clipped = ascii(Wire.errorLine("x".repeat(Wire.MAX_FIELD)));
        assertEquals("JSPIN-RDV/2 ERROR " + "x".repeat(Wire.MAX_FIELD / 3 - 3) + "...\n", clipped);
        String fits = "y".repeat(Wire.MAX_FIELD / 3);
        assertEquals("JSPIN-RDV/2 ERROR " + fits + "\n", ascii(Wire.errorLine(fits)));
    }

    @Test
    void aJobIdAndSecretMustFitAHello() {
        Wire.checkJobAndSecret("job", "0123456789abcdef");
        for (String[] bad : new String[][] {{" ", "0123456789abcdef"}, {null, "0123456789abcdef"},
                {"j".repeat(Wire.MAX_FIELD + 1), "0123456789abcdef"}, {"job", "short"}, {"job", null}}) {
            MpiException e = assertThrows(MpiException.class, () -> Wire.checkJobAndSecret(bad[0], bad[1]));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(!e.getMessage().contains("0123456789abcdef"), "never the secret: " + e.getMessage());
        }
        MpiException e = assertThrows(MpiException.class, () -> Wire.checkJobAndSecret("job", "short"));
        assertTrue(e.getMessage().endsWith("got 5"), e.getMessage());
    }
}
