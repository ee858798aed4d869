package org.jspin.examples;

import java.util.Locale;
import java.util.Map;

/** One flat JSON object of numbers, strings and booleans: what the examples print with {@code --json}. */
public final class Json {
    private Json() {
    }

    /** @return {@code m} as one JSON object (NaN and infinities as null) */
    public static String object(Map<String, Object> m) {
        StringBuilder s = new StringBuilder("{");
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (s.length() > 1) {
                s.append(',');
            }
            s.append(string(e.getKey())).append(':').append(value(e.getValue()));
        }
        return s.append('}').toString();
    }

    private static String value(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.6g", d);
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        return string(v.toString());
    }

    private static String string(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
