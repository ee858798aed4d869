package org.jspin.replay.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenizerTest {
    @Test
    void punctuationIsAWordOfItsOwn() {
        Tokenizer t = new Tokenizer(":{}");
        assertEquals(7, t.split("l1:send  8b\tto 1}"));
        assertArrayEquals(new String[] {"l1", ":", "send", "8b", "to", "1", "}"}, t.words());
        assertEquals(6, t.split("rank 3{ calc 5 }\r"));
        assertEquals("{", t.word(2));
        assertEquals("}", t.word(5));
    }

    @Test
    void withoutPunctuationOnlySpacesSplitAndWordsGrowPastSixteen() {
        Tokenizer t = new Tokenizer("");
        assertEquals(1, t.split("a:b{c}"));
        assertEquals(0, t.split("   "));
        String many = "w ".repeat(40);
        assertEquals(40, t.split(many));
        assertEquals(40, t.words().length);
    }

    @Test
    void digitsAreUnsignedDecimals() {
        assertTrue(Tokenizer.isDigits("0123"));
        assertFalse(Tokenizer.isDigits("-1"));
        assertFalse(Tokenizer.isDigits(""));
        assertFalse(Tokenizer.isDigits("1b"));
    }
}
