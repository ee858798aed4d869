package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.json.LayoutSummary;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Writing a golden type as JSON and reading it back gives the description and the layout it came from. */
class GoldenJsonRoundTripTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.datatype.GoldenLayoutTest#cases")
    void writeThenParseKeepsTheLayoutSummary(JsonNode c) throws Exception {
        Datatype t = DatatypeJson.read(c.get("type"));
        long count = c.get("count").asLong();
        String written = DatatypeJson.write(t);
        // the writer reproduces the description (object key order aside)
        assertEquals(DatatypeJson.mapper().readTree(c.get("type").toString()), DatatypeJson.mapper().readTree(written),
                "written JSON");
        Datatype back = DatatypeJson.parse(written);
        assertEquals(LayoutSummary.of(t, count), LayoutSummary.of(back, count), "layout summary of " + written);
    }
}
