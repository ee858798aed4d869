package org.jspin.nic.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class MatchBitsTest {
    @Test
    void fieldsRoundTripAtTheirLimits() {
        long b = MatchBits.of(MatchBits.MAX_CONTEXT, MatchBits.MAX_RANK, MatchBits.TAG_UB);
        assertEquals(MatchBits.MAX_CONTEXT, MatchBits.context(b));
        assertEquals(MatchBits.MAX_RANK, MatchBits.source(b));
        assertEquals(MatchBits.TAG_UB, MatchBits.tag(b));
        long z = MatchBits.of(0, 0, 0);
        assertEquals(0, MatchBits.context(z) + MatchBits.source(z) + MatchBits.tag(z));
    }

    @Test
    void wildcardsIgnoreExactlyTheirField() {
        long msg = MatchBits.of(3, 7, 42);
        assertTrue(MatchBits.matches(msg, MatchBits.select(3, 7, 42), MatchBits.ignore(7, 42)));
        assertTrue(MatchBits.matches(msg, MatchBits.select(3, MatchBits.ANY_SOURCE, 42),
                MatchBits.ignore(MatchBits.ANY_SOURCE, 42)));
        assertTrue(MatchBits.matches(msg, MatchBits.select(3, 7, MatchBits.ANY_TAG), MatchBits.ignore(7, -1)));
        assertTrue(MatchBits.matches(msg, MatchBits.select(3, -1, -1), MatchBits.ignore(-1, -1)));
        // a wildcard never crosses a context, nor widens the other field
        assertFalse(MatchBits.matches(msg, MatchBits.select(4, -1, -1), MatchBits.ignore(-1, -1)));
        assertFalse(MatchBits.matches(msg, MatchBits.select(3, -1, 43), MatchBits.ignore(-1, 43)));
        assertFalse(MatchBits.matches(msg, MatchBits.select(3, 8, -1), MatchBits.ignore(8, -1)));
    }

    @Test
    void outOfRangeFieldsNameTheirValue() {
        assertError(ErrorClass.ERR_TAG, "-2", () -> MatchBits.of(0, 0, -2));
        assertError(ErrorClass.ERR_TAG, "-5", () -> MatchBits.select(0, 0, -5));
        assertError(ErrorClass.ERR_RANK, "262144", () -> MatchBits.of(0, MatchBits.MAX_RANK + 1, 0));
        assertError(ErrorClass.ERR_RANK, "-3", () -> MatchBits.select(0, -3, 0));
        assertError(ErrorClass.ERR_COMM, "16384", () -> MatchBits.of(MatchBits.MAX_CONTEXT + 1, 0, 0));
    }

    private static void assertError(ErrorClass c, String value, Runnable r) {
        MpiException e = assertThrows(MpiException.class, r::run);
        assertEquals(c, e.errorClass());
        assertTrue(e.getMessage().contains(value), e.getMessage());
    }
}
