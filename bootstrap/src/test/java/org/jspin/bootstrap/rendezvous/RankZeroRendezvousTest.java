package org.jspin.bootstrap.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rank 0's served exchange on its own, in a one-rank job (the many-rank jobs: {@link RendezvousRankZeroTest}). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RankZeroRendezvousTest {
    private static final String SECRET = "0123456789abcdef-secret";

    private static RankZeroRendezvous alone(int port) {
        String address = "127.0.0.1:" + port;
        return new RankZeroRendezvous(Wire.HostPort.parse(address, 1), "job", SECRET, 1,
                new RendezvousClient(address, "job", SECRET));
    }

    @Test
    void servesItselfAndClosesTheServerAfterwards() {
        int port = RendezvousClientTest.freePort();
        RankZeroRendezvous zero = alone(port);
        assertEquals(List.of("h:0"), zero.exchange(0, "h:0", Duration.ofSeconds(10)));
        // a listener left open would keep the port: binding it again would fail after the retries
        assertEquals(List.of("h:0b"), zero.exchange(0, "h:0b", Duration.ofSeconds(10)), "the port was freed");
    }

    @Test
    void refusesAnotherRankAndANonPositiveTimeoutBeforeBinding() {
        RankZeroRendezvous zero = alone(1);
        MpiException e = assertThrows(MpiException.class, () -> zero.exchange(1, "h:1", Duration.ofSeconds(1)));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("called as rank 1"), e.getMessage());
        e = assertThrows(MpiException.class, () -> zero.exchange(0, "h:0", Duration.ZERO));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("got PT0S"), e.getMessage());
    }
}
