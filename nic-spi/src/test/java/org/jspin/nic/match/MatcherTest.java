package org.jspin.nic.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** MPI's matching rules, one at a time. */
class MatcherTest {
    private final Matcher<String, String> m = new Matcher<>();

    private String post(int ctx, int src, int tag, String name) {
        return m.post(MatchBits.select(ctx, src, tag), MatchBits.ignore(src, tag), name);
    }

    private String arrive(int ctx, int src, int tag, String name) {
        return m.arrive(MatchBits.of(ctx, src, tag), name);
    }

    @Test
    void aMessageTakesTheEarliestPostedReceiveThatAcceptsIt() {
        assertNull(post(0, 1, 5, "r-tag5"));
        assertNull(post(0, MatchBits.ANY_SOURCE, MatchBits.ANY_TAG, "r-any"));
        assertNull(post(0, 1, 6, "r-tag6"));
        assertEquals("r-any", arrive(0, 1, 6, "m1"), "r-any was posted before r-tag6");
        assertEquals("r-tag5", arrive(0, 1, 5, "m2"));
        assertNull(arrive(0, 2, 6, "m3"), "r-tag6 wants source 1, not 2");
        assertEquals(1, m.unexpectedCount());
        assertEquals(1, m.postedCount());
    }

    @Test
    void aReceiveTakesTheEarliestUnexpectedMessageItAccepts() {
        assertNull(arrive(0, 2, 9, "m-2-9"));
        assertNull(arrive(0, 1, 9, "m-1-9a"));
        assertNull(arrive(0, 1, 9, "m-1-9b"));
        assertEquals("m-1-9a", post(0, 1, 9, "r"), "non-overtaking: first from source 1 first");
        assertEquals("m-2-9", post(0, MatchBits.ANY_SOURCE, 9, "r2"), "wildcards match in arrival order");
        assertEquals("m-1-9b", post(0, MatchBits.ANY_SOURCE, MatchBits.ANY_TAG, "r3"));
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.postedCount());
    }

    @Test
    void contextsNeverMatchEachOther() {
        assertNull(arrive(1, 0, 0, "in-ctx-1"));
        assertNull(post(2, MatchBits.ANY_SOURCE, MatchBits.ANY_TAG, "r-ctx-2"));
        assertEquals(1, m.unexpectedCount());
        assertEquals(1, m.postedCount());
    }

    @Test
    void cancelRemovesOnlyAReceiveStillPosted() {
        String r = "r";
        m.post(MatchBits.select(0, 1, 1), MatchBits.ignore(1, 1), r);
        assertTrue(m.cancel(r));
        assertFalse(m.cancel(r), "already cancelled");
        assertNull(arrive(0, 1, 1, "m"), "the cancelled receive must not match");
    }

    @Test
    void probeLeavesTheMessageAndTakeRemovesIt() {
        arrive(0, 3, 4, "m");
        long sel = MatchBits.select(0, MatchBits.ANY_SOURCE, 4);
        long ign = MatchBits.ignore(MatchBits.ANY_SOURCE, 4);
        assertEquals("m", m.probe(sel, ign));
        assertEquals("m", m.probe(sel, ign), "probe does not consume");
        assertEquals("m", m.take(sel, ign));
        assertNull(m.probe(sel, ign), "a matched probe's message is gone for everyone else");
        assertNull(post(0, 3, 4, "r"));
    }
}
