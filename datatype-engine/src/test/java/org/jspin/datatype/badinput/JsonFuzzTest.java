package org.jspin.datatype.badinput;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.SharedFiles;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JSON datatype reader against 200,000 random and mutated documents: each golden description
 * with characters flipped, dropped, duplicated or replaced, numbers swapped for extreme ones, and
 * pieces of JSON noise. Every document must either read as a type that commits and answers its
 * size and extent, or be refused with an {@link MpiException} whose message is not empty; any
 * other exception, or a hang, fails with the case's seed.
 */
class JsonFuzzTest {
    private static final int CASES = 200_000;
    private static final String[] NUMBERS = {"0", "-1", "1", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "-9223372036854775808", "1e308", "-0", "0.5", "1e-9", "NaN", "99999999999999999999"};
    private static final String[] NOISE = {"{", "}", "[", "]", ",", ":", "\"", "null", "true", "\"type\"",
        "\"vector\"", "\"count\":", "\\u0000", "\"blocklengths\":[1,2]", "{\"type\":\"byte\"}"};

    @Test
    @Timeout(120)
    void randomAndMutatedDescriptionsReadAsATypeOrFailWithAnMpiException() {
        List<String> seeds = new ArrayList<>();
        for (JsonNode line : SharedFiles.jsonLines("golden/handpicked.jsonl")) {
            seeds.add(line.get("type").toString());
        }
        assertTrue(seeds.size() > 100, "the golden descriptions were read");
        int read = 0;
        int refused = 0;
        for (int c = 0; c < CASES; c++) {
            long seed = 0x15_0000L + c;
            Random rnd = new Random(seed);
            String doc = mutate(rnd, seeds.get(rnd.nextInt(seeds.size())));
            try {
                Datatype t = DatatypeJson.parse(doc);
                t.commit();
                assertTrue(t.size() >= 0, "seed " + seed + ": negative size of " + doc);
                t.extent();
                read++;
            } catch (MpiException e) {
                assertNotNull(e.errorClass(), "seed " + seed);
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "seed " + seed + ": an empty message");
                refused++;
            } catch (Throwable t) {
                fail("seed " + seed + ": " + t + " reading " + abbreviate(doc), t);
            }
        }
        assertTrue(read > CASES / 100 && refused > CASES / 100, "both outcomes exercised: " + read + " read, " + refused
                + " refused");
    }

    /** What the fuzzer found first (seed 1392958): an ArithmeticException escaped the commit. */
    @Test
    void aDisplacementAtTheEndOfTheRangeIsRefusedAtCommitRatherThanOverflowing() {
        Datatype t = DatatypeJson.parse("{\"struct\":{\"blocklengths\":[1,0,1],"
                + "\"displacements_bytes\":[-9223372036854775808,100,8],\"types\":[\"int\",\"double\",\"int\"]}}");
        MpiException e = org.junit.jupiter.api.Assertions.assertThrows(MpiException.class, t::commit);
        org.junit.jupiter.api.Assertions.assertEquals(org.jspin.error.ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("overflows 64 bits"), e.getMessage());
    }

    private static String mutate(Random rnd, String doc) {
        StringBuilder b = new StringBuilder(doc);
        int edits = 1 + rnd.nextInt(3);
        for (int e = 0; e < edits && b.length() > 0; e++) {
            int at = rnd.nextInt(b.length());
            switch (rnd.nextInt(6)) {
                case 0 -> b.setCharAt(at, (char) (32 + rnd.nextInt(95))); // any printable character
                case 1 -> b.deleteCharAt(at);
                case 2 -> b.insert(at, b.charAt(at));
                case 3 -> b.insert(at, NOISE[rnd.nextInt(NOISE.length)]);
                case 4 -> { // a number replaced by an extreme one
                    int digit = indexOfDigit(b, at);
                    if (digit >= 0) {
                        int end = digit;
                        while (end < b.length() && (Character.isDigit(b.charAt(end)) || b.charAt(end) == '-')) {
                            end++;
                        }
                        b.replace(digit, end, NUMBERS[rnd.nextInt(NUMBERS.length)]);
                    }
                }
                default -> b.setLength(at); // cut short
            }
        }
        return b.toString();
    }

    private static int indexOfDigit(CharSequence s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (Character.isDigit(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
