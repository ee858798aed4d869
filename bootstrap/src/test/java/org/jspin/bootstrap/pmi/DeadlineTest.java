package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class DeadlineTest {
    @Test
    void endsTheBudgetAfterNowAndRemembersIt() {
        long before = System.nanoTime();
        Deadline d = Deadline.after(Duration.ofSeconds(3));
        long after = System.nanoTime();
        assertEquals(Duration.ofSeconds(3), d.budget());
        assertTrue(d.nanos() >= before + 3_000_000_000L && d.nanos() <= after + 3_000_000_000L, d.toString());
    }

    @Test
    void anEnormousBudgetDoesNotOverflow() {
        Deadline d = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE));
        assertTrue(d.nanos() - System.nanoTime() > 0, "the deadline lies in the future");
        assertEquals(Duration.ofSeconds(Long.MAX_VALUE), d.budget());
    }

    @Test
    void refusesNonPositiveOrMissingTimeouts() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), null}) {
            MpiException e = assertThrows(MpiException.class, () -> Deadline.after(bad));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains("got " + bad), e.getMessage());
        }
    }
}
