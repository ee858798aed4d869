package org.jspin.bootstrap.pmi;

import java.nio.charset.StandardCharsets;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** What a PMI-1 line can carry as a key or value, and how text from the wire is shown in messages. */
final class Pmi1Words {
    private Pmi1Words() {
    }

    /**
     * Rejects what a PMI-1 line cannot carry: spaces, control characters, '=' and overlong text.
     *
     * @param what       what the text is, for the message ("key", "value for key 'k'")
     * @param max        the process manager's limit, counting a terminating NUL
     * @param maxName    the limit's name ({@code keylen_max}, {@code vallen_max})
     * @param mayBeEmpty whether the empty text is allowed
     * @throws MpiException ERR_ARG naming the text and what is wrong with it
     */
    static void check(String what, String text, int max, String maxName, boolean mayBeEmpty) {
        if (text == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " must not be null");
        }
        if (text.isEmpty() && !mayBeEmpty) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " must not be empty");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '=' || Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " '" + quote(text)
                        + "' contains '" + quote(String.valueOf(c)) + "' at index " + i
                        + "; PMI-1 lines cannot carry spaces, control characters or '='");
            }
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes >= max) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " '" + quote(text) + "' is " + bytes
                    + " bytes; the process manager's " + maxName + "=" + max
                    + " (which counts a terminating NUL) allows at most " + (max - 1));
        }
    }

    /** @return {@code text} with control characters spelled out, so a message stays on one line */
    static String quote(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
