package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** The peer timeout's setting; what it does to a vanished host is {@code NamespacesSystemTest}'s. */
class PeerLivenessTest {
    @Test
    void theTimeoutIsTenSecondsUnlessSetAndABadSettingIsRefusedNamingIt() {
        assertEquals(PeerLiveness.DEFAULT_SECONDS, PeerLiveness.configured(Map.of()).timeoutSeconds());
        assertEquals(10, PeerLiveness.DEFAULT_SECONDS);
        assertEquals(30, PeerLiveness.configured(Map.of(PeerLiveness.ENV, " 30 ")).timeoutSeconds());
        for (String bad : new String[] {"ten", "1", "0", "-5", "100000", "2.5"}) {
            MpiException e = assertThrows(MpiException.class,
                    () -> PeerLiveness.configured(Map.of(PeerLiveness.ENV, bad)), bad);
            assertEquals(ErrorClass.ERR_ARG, e.errorClass(), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }
}
