package org.jspin.examples;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** One flat JSON object of numbers, strings and booleans: what the examples print with {@code --json}. */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    /** Six significant digits: the examples' timings and errors carry no more. */
    private static final MathContext DIGITS = new MathContext(6);

    private Json() {
    }

    /** @return {@code m} as one JSON object, in its order (NaN and infinities as null) */
    public static String object(Map<String, Object> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v instanceof Double d ? decimal(d) : v));
        try {
            return MAPPER.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a flat object of numbers, strings and booleans: " + m, e);
        }
    }

    private static BigDecimal decimal(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? null : new BigDecimal(d).round(DIGITS);
    }
}
