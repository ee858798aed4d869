package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;

import io.netty.channel.local.LocalAddress;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code -Djspin.netty.congestion}: unset, {@code reno} within the host; {@code system}, the
 * kernel's default everywhere; a name the kernel has, that one everywhere; anything else a clear
 * error. Which connections stay within the host.
 */
class CongestionControlTest {
    private static final List<String> KERNEL_HAS = List.of("reno", "bbr", "cubic");

    @Test
    void unsetIsRenoWithinTheHostSystemIsNothingAndANameIsTaken() {
        assertEquals("reno", CongestionControl.of(null, KERNEL_HAS).name());
        assertNull(CongestionControl.of("system", KERNEL_HAS).name());
        assertEquals("cubic", CongestionControl.of("cubic", KERNEL_HAS).name());
        assertEquals("vegas", CongestionControl.of("vegas", null).name(), "a kernel that cannot say is asked anyway");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"vegas", "Reno", "", "bbr ", "a_name_far_too_long", "re-no"})
    void anythingElseIsAnArgumentErrorNamingIt(String value) {
        MpiException e = assertThrows(MpiException.class, () -> CongestionControl.of(value, KERNEL_HAS));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("jspin.netty.congestion='" + value + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("reno, bbr, cubic"), "it lists what the kernel has: " + e.getMessage());
    }

    @Test
    void aConnectionStaysWithinTheHostOverLoopbackOrToTheHostsOwnAddress() {
        assertTrue(CongestionControl.sameHost(new InetSocketAddress("127.0.0.1", 5000),
                new InetSocketAddress("127.0.0.1", 6000)));
        assertTrue(CongestionControl.sameHost(new InetSocketAddress("127.0.1.1", 5000),
                new InetSocketAddress("127.0.0.1", 6000)), "all of 127/8 is loopback");
        assertTrue(CongestionControl.sameHost(new InetSocketAddress("::1", 5000), new InetSocketAddress("::1", 6000)));
        assertTrue(CongestionControl.sameHost(new InetSocketAddress("10.1.2.3", 5000),
                new InetSocketAddress("10.1.2.3", 6000)), "both ends at one of the host's own addresses");
        assertFalse(CongestionControl.sameHost(new InetSocketAddress("10.1.2.4", 5000),
                new InetSocketAddress("10.1.2.3", 6000)));
        assertFalse(CongestionControl.sameHost(new LocalAddress("x"), new InetSocketAddress("127.0.0.1", 6000)));
    }
}
