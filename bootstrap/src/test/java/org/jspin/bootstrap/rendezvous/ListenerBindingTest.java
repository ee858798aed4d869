package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ListenerBindingTest {
    @Test
    void bindsAnyFreePortOrTheOneAsked() throws IOException {
        int port;
        try (ServerSocket any = ListenerBinding.bind("127.0.0.1", 0, 4)) {
            assertTrue(any.isBound());
            port = any.getLocalPort();
            assertTrue(port > 0);
        }
        try (ServerSocket fixed = ListenerBinding.bind("127.0.0.1", port, 4)) {
            assertEquals(port, fixed.getLocalPort(), "the last job's port is bound again at once");
        }
    }

    @Test
    void aPortHeldByAnotherListenerIsRefusedAfterTheRetriesNamingTheAddress() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            long start = System.nanoTime();
            MpiException e = assertThrows(MpiException.class, () -> ListenerBinding.bind("127.0.0.1", taken.getLocalPort(), 4));
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 900, "a busy fixed port is retried");
            assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
            assertTrue(e.getMessage().contains("cannot bind the rendezvous server to 127.0.0.1:" + taken.getLocalPort()),
                    e.getMessage());
        }
    }

    @Test
    void anUnknownHostIsRefused() {
        MpiException e = assertThrows(MpiException.class, () -> ListenerBinding.bind("no-such-host.invalid", 0, 1));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("no-such-host.invalid:0"), e.getMessage());
    }
}
