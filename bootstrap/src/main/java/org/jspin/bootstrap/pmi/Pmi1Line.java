package org.jspin.bootstrap.pmi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One parsed PMI-1 line: space-separated {@code key=value} fields, the first of them {@code cmd}.
 * A value runs to the next space and may itself contain {@code '='} (Hydra splits at the first one).
 *
 * @param text   the line as received
 * @param fields the fields in order, {@code cmd} first
 */
record Pmi1Line(String text, Map<String, String> fields) {
    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    static Pmi1Line parse(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String token : text.split(" ")) {
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + token + "' is not key=value");
            }
            String key = token.substring(0, eq);
            if (fields.putIfAbsent(key, token.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("key '" + key + "' appears twice");
            }
        }
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("the line is empty");
        }
        if (!"cmd".equals(fields.keySet().iterator().next())) {
            throw new IllegalArgumentException("it does not start with cmd=");
        }
        return new Pmi1Line(text, Collections.unmodifiableMap(fields));
    }

    /** @return the command, the value of the leading {@code cmd} field */
    String cmd() {
        return fields.get("cmd");
    }

    /** @return the value of {@code key}, or null when the line has no such field */
    String get(String key) {
        return fields.get(key);
    }
}
