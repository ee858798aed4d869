package org.jspin.replay.text;

import java.util.Arrays;

/**
 * Splits a line of a schedule file into words at spaces and tabs, and gives each of the given
 * punctuation characters a word of its own ({@code "l1:send"} is {@code l1 : send}); no regular
 * expression and no list per line, since schedule files run to millions of lines.
 */
public final class Tokenizer {
    private final String punctuation;
    private String[] words = new String[16];
    private int count;

    /** @param punctuation characters that are words by themselves (GOAL's {@code ":{}"}; none for traces) */
    public Tokenizer(String punctuation) {
        this.punctuation = punctuation;
    }

    /**
     * Splits {@code line}; read the words with {@link #count()} and {@link #word(int)} until the next call.
     *
     * @return the number of words
     */
    public int split(String line) {
        count = 0;
        int n = line.length();
        int i = 0;
        while (i < n) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
            } else if (punctuation.indexOf(c) >= 0) {
                add(String.valueOf(c));
                i++;
            } else {
                int start = i;
                while (i < n) {
                    char d = line.charAt(i);
                    if (d == ' ' || d == '\t' || d == '\r' || punctuation.indexOf(d) >= 0) break;
                    i++;
                }
                add(line.substring(start, i));
            }
        }
        return count;
    }

    /** @return the words of the last line split */
    public int count() { return count; }

    /** @return word {@code i} of the last line split */
    public String word(int i) { return words[i]; }

    /** @return a copy of the words of the last line split */
    public String[] words() { return Arrays.copyOf(words, count); }

    /** @return whether {@code word} is a decimal number without sign */
    public static boolean isDigits(String word) {
        if (word.isEmpty()) return false;
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    private void add(String word) {
        if (count == words.length) words = Arrays.copyOf(words, count * 2);
        words[count++] = word;
    }
}
