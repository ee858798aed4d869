package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class Pmi1WordsTest {
    private static String refusal(String text, int max, boolean mayBeEmpty) {
        MpiException e = assertThrows(MpiException.class, () -> Pmi1Words.check("key", text, max, "keylen_max", mayBeEmpty));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        return e.getMessage();
    }

    @Test
    void acceptsWhatALineCanCarry() {
        Pmi1Words.check("value", "127.0.0.1:4567", 64, "vallen_max", false);
        Pmi1Words.check("value", "", 64, "vallen_max", true);
        Pmi1Words.check("key", "abc", 4, "keylen_max", false); // 3 bytes and the NUL
    }

    @Test
    void refusesSpacesEqualsControlsAndNamesTheIndex() {
        assertTrue(refusal("a b", 64, false).contains("' ' at index 1"), refusal("a b", 64, false));
        assertTrue(refusal("k=v", 64, false).contains("'=' at index 1"));
        assertTrue(refusal("ab\n", 64, false).contains("'ab\\n' contains '\\n' at index 2"));
        assertTrue(refusal("x\u00a0", 64, false).contains("at index 1"), "a no-break space is a space too");
    }

    @Test
    void refusesNullEmptyAndOverlongText() {
        assertTrue(refusal(null, 64, true).contains("must not be null"));
        assertTrue(refusal("", 64, false).contains("must not be empty"));
        String m = refusal("\u00e9\u00e9", 4, false);
        assertTrue(m.contains("is 4 bytes") && m.contains("keylen_max=4") && m.contains("at most 3"), m);
    }

    @Test
    void quoteSpellsOutControlCharacters() {
        assertEquals("a\\nb\\rc\\td\\u0001e", Pmi1Words.quote("a\nb\rc\td\u0001e"));
        assertEquals("plain: é", Pmi1Words.quote("plain: é"));
    }
}
