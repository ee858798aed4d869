package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.jspin.nic.Event;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** A probe's answer as the waiter sees it: a status with the message's full length, or none. */
class ProbeWaitTest {
    @Test
    void aFoundMessageGivesItsEnvelopeAndFullLength() {
        ProbeWait w = new ProbeWait(new RecordingNic());
        MatchedMessage taken = new RecordingNic.Taken(MatchBits.of(3, 4, 5), 100);
        w.probed(new Event(Event.Kind.PROBE, MatchBits.of(3, 4, 5), 100, 0, null, false), taken);
        Status s = w.await();
        assertEquals(4, s.source());
        assertEquals(5, s.tag());
        assertEquals(100, s.byteCount(), "the message's bytes, not the (none) delivered");
        assertSame(taken, w.matched());
    }

    @Test
    void nothingFoundIsNull() {
        ProbeWait w = new ProbeWait(new RecordingNic());
        w.probed(null, null);
        assertNull(w.await());
        assertNull(w.matched());
    }
}
