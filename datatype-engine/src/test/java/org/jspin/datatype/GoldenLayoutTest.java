package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.json.LayoutSummary;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every golden case of shared/golden and shared/layouts: the layout summary, field by field. */
class GoldenLayoutTest {
    private static final String[] FIELDS = {"size", "extent", "lb", "ub", "true_lb", "true_extent", "count"};

    /** @return every golden case (shared/golden and shared/layouts), named */
    static Stream<Arguments> cases() {
        return Stream.of("golden/handpicked.jsonl", "golden/random-public.jsonl", "layouts/golden.jsonl")
                .flatMap(f -> SharedFiles.jsonLines(f).stream())
                .map(c -> Arguments.of(Named.of(c.get("name").asText(), c)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void layoutSummaryMatchesReference(JsonNode c) throws Exception {
        Datatype t = DatatypeJson.read(c.get("type"));
        long count = c.get("count").asLong();
        JsonNode got = DatatypeJson.mapper().readTree(LayoutSummary.of(t, count));
        JsonNode expect = c.get("expect");
        for (String f : FIELDS) {
            assertEquals(expect.get(f).asLong(), got.get(f).asLong(), f + " of " + t);
        }
        assertEquals(expect.get("regions"), got.get("regions"), "regions");
    }
}
