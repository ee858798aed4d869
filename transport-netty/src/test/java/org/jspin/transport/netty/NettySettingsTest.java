package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.settings.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fabric's settings: byte counts the fabric's packets can carry, true or false, a peer timeout
 * in seconds from a property or the environment; anything else a clear error naming what was given.
 */
class NettySettingsTest {
    private static NettySettings of(Map<String, String> properties, Map<String, String> environment) {
        return NettySettings.from(Settings.of(properties, environment));
    }

    @Test
    void unsetIsEachDefault() {
        NettySettings s = of(Map.of(), Map.of());
        assertEquals(16 << 10, s.copyLimit());
        assertTrue(s.landing());
        assertEquals(null, s.congestion());
        assertEquals(64 << 10, s.rtsPayload(), "Open MPI's first TCP fragment");
        assertEquals(NettyFabric.MAX_PAYLOAD, s.wholeData());
        assertEquals(2 << 20, s.flushBytes());
        assertTrue(s.directReads());
        assertEquals(4 << 20, s.sendBuffer());
        assertEquals(4 << 20, s.receiveBuffer());
        assertEquals(10, s.peerTimeoutSeconds());
    }

    @Test
    void givenValuesAreTakenAndAPropertyWinsOverTheEnvironment() {
        NettySettings s = of(Map.of("jspin.netty.rtsPayload", " 4096 ", "jspin.netty.wholeData", "0",
                "jspin.netty.flushBytes", "8388608", "jspin.netty.directReads", "FALSE", "jspin.netty.landing", "false",
                "jspin.netty.sndbuf", "0", "jspin.netty.congestion", "cubic"), Map.of("JSPIN_PEER_TIMEOUT", " 30 "));
        assertEquals(4096, s.rtsPayload());
        assertEquals(0, s.wholeData());
        assertEquals(8 << 20, s.flushBytes());
        assertFalse(s.directReads());
        assertFalse(s.landing());
        assertEquals(0, s.sendBuffer());
        assertEquals("cubic", s.congestion());
        assertEquals(30, s.peerTimeoutSeconds());
        assertEquals(40, of(Map.of("jspin.peer.timeout", "40"), Map.of("JSPIN_PEER_TIMEOUT", "30")).peerTimeoutSeconds());
    }

    @ParameterizedTest(name = "{0}=''{1}''")
    @CsvSource({"jspin.netty.rtsPayload,-1", "jspin.netty.rtsPayload,64k", "jspin.netty.rtsPayload,1048577",
            "jspin.netty.rtsPayload,99999999999", "jspin.netty.wholeData,1m", "jspin.netty.wholeData,1048577",
            "jspin.netty.flushBytes,2m", "jspin.netty.flushBytes,1073741825", "jspin.netty.directReads,yes",
            "jspin.netty.directReads,flase", "jspin.netty.landing,0", "jspin.netty.copyLimit,-5",
            "jspin.netty.sndbuf,big", "jspin.peer.timeout,1", "jspin.peer.timeout,2.5", "jspin.peer.timeout,100000"})
    void anythingElseIsAnArgumentErrorNamingThePropertyAndTheValue(String property, String value) {
        MpiException e = assertThrows(MpiException.class, () -> of(Map.of(property, value), Map.of()));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("-D" + property) && e.getMessage().contains("'" + value + "'"), e.getMessage());
    }

    @Test
    void aBadPeerTimeoutInTheEnvironmentNamesTheVariable() {
        MpiException e = assertThrows(MpiException.class, () -> of(Map.of(), Map.of("JSPIN_PEER_TIMEOUT", "ten")));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("JSPIN_PEER_TIMEOUT") && e.getMessage().contains("'ten'"), e.getMessage());
    }
}
