package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.junit.jupiter.api.Test;

/** Completions alone: a completion that throws stays out of the core, and failures become MpiExceptions. */
class CompletionsTest {
    @Test
    void aCallbackThatThrowsIsLoggedNotPassedOn() {
        Parts parts = new Parts(2);
        Req r = parts.receive(1, 5, new byte[10]);
        Event e = new Event(Event.Kind.RECEIVE, 1, 0, 0, null, true);
        Completions.tell(r.entry, e, 0);
        assertSame(e, r.event());
        Req s = parts.op(1, 5, new byte[10]);
        org.jspin.nic.Put throwing = new org.jspin.nic.Put(1, 0, s.send.put.buffer(), 10, s.send.put.type(),
                s.send.put.cursor(), ignored -> {
                    throw new IllegalStateException("a user's bug");
                });
        Completions.tell(throwing, e, 0); // no exception out
    }

    @Test
    void aFailureIsAnMpiExceptionSayingWhatFailed() {
        MpiException m = new MpiException(ErrorClass.ERR_TRUNCATE, "short");
        assertSame(m, Completions.asMpi(m, "anything"));
        MpiException wrapped = Completions.asMpi(new IllegalStateException("no room"), "packing bytes from 7");
        assertEquals(ErrorClass.ERR_INTERN, wrapped.errorClass());
        assertTrue(wrapped.getMessage().contains("packing bytes from 7"), wrapped.getMessage());
        assertTrue(wrapped.getMessage().contains("no room"), wrapped.getMessage());
    }
}
