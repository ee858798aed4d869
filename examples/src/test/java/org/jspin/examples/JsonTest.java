package org.jspin.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The examples' --json line: valid JSON in the map's order, doubles to six digits, NaN as null. */
class JsonTest {
    @Test
    void aFlatObjectInOrderWithSixDigitsAndNaNAsNull() throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("example", "halo \"2d\"\n");
        m.put("ranks", 4);
        m.put("us_per_iter", 1234.56789);
        m.put("big", 1.234567e9);
        m.put("error", Double.NaN);
        m.put("bit_identical", true);
        String json = Json.object(m);
        assertEquals("{\"example\":\"halo \\\"2d\\\"\\n\",\"ranks\":4,\"us_per_iter\":1234.57,\"big\":1234570000,"
                + "\"error\":null,\"bit_identical\":true}", json);
        JsonNode back = new ObjectMapper().readTree(json);
        assertEquals("halo \"2d\"\n", back.get("example").asText());
        assertEquals(1234.57, back.get("us_per_iter").asDouble());
    }
}
