package org.jspin.datatype.badinput;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;

import java.util.stream.Stream;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Descriptions the JSON reader must refuse: the error names the JSON path of the offending value
 * (and the value), so that a user can find it in a large layout file. Malformed JSON is ERR_ARG; an
 * argument the engine itself refuses keeps the engine's class and gains the path.
 */
class MalformedJsonTest {
    private static final String V = "\"count\":2,\"blocklength\":1,\"stride\":3";

    static Stream<Arguments> malformed() {
        return Stream.of(
                bad("not JSON at all", "{\"vector\": ", "malformed datatype JSON"),
                bad("empty input", "", "empty"),
                bad("two values", "\"int\" \"double\"", "malformed datatype JSON"),
                bad("trailing garbage", "{\"contiguous\":{\"count\":2,\"of\":\"int\"}} ]", "malformed datatype JSON"),
                bad("a number", "42", "at $", "42"),
                bad("unknown constructor", "{\"vectr\":{" + V + ",\"of\":\"int\"}}", "vectr", "at $"),
                bad("unknown nested constructor", "{\"contiguous\":{\"count\":1,\"of\":{\"blob\":{}}}}", "blob",
                        "at $.contiguous.of"),
                bad("two constructor keys", "{\"contiguous\":{},\"vector\":{}}", "at $"),
                bad("unknown named type", "{\"vector\":{" + V + ",\"of\":\"quad\"}}", "quad", "at $.vector.of"),
                bad("named type in the wrong case", "\"INT\"", "INT", "at $"),
                bad("missing field", "{\"vector\":{\"count\":2,\"blocklength\":1,\"of\":\"int\"}}", "stride",
                        "at $.vector"),
                bad("missing old type", "{\"vector\":{" + V + "}}", "at $.vector.of"),
                bad("null old type", "{\"contiguous\":{\"count\":1,\"of\":null}}", "at $.contiguous.of"),
                bad("unknown argument", "{\"contiguous\":{\"count\":1,\"stride\":2,\"of\":\"int\"}}", "stride",
                        "at $.contiguous"),
                bad("arguments not an object", "{\"contiguous\":[1,\"int\"]}", "at $.contiguous"),
                bad("fractional integer", "{\"vector\":{\"count\":1.5,\"blocklength\":1,\"stride\":3,\"of\":\"int\"}}",
                        "1.5", "at $.vector.count"),
                bad("integer as a string", "{\"contiguous\":{\"count\":\"3\",\"of\":\"int\"}}", "\"3\"",
                        "at $.contiguous.count"),
                bad("integer beyond 64 bits", "{\"contiguous\":{\"count\":99999999999999999999,\"of\":\"int\"}}",
                        "99999999999999999999", "at $.contiguous.count"),
                bad("non-integer array entry",
                        "{\"indexed\":{\"blocklengths\":[1,\"x\"],\"displacements\":[0,4],\"of\":\"int\"}}", "\"x\"",
                        "at $.indexed.blocklengths[1]"),
                bad("array expected", "{\"hindexed\":{\"blocklengths\":[1],\"displacements_bytes\":4,\"of\":\"int\"}}",
                        "at $.hindexed.displacements_bytes"),
                bad("struct types not an array",
                        "{\"struct\":{\"blocklengths\":[1],\"displacements_bytes\":[0],\"types\":\"int\"}}",
                        "at $.struct.types"),
                bad("deep path", "{\"struct\":{\"blocklengths\":[1,1],\"displacements_bytes\":[0,4],\"types\":[\"int\","
                        + "{\"vector\":{\"count\":\"two\",\"blocklength\":1,\"stride\":3,\"of\":\"int\"}}]}}", "\"two\"",
                        "at $.struct.types[1].vector.count"),
                bad("wrong order string", subarray("\"X\""), "\"X\"", "at $.subarray.order"),
                bad("order in lower case", subarray("\"c\""), "\"c\"", "at $.subarray.order"),
                bad("order as a number", subarray("0"), "at $.subarray.order"));
    }

    /** Arguments the engine refuses keep the engine's error class; the reader adds where they were. */
    static Stream<Arguments> refusedByTheEngine() {
        return Stream.of(
                Arguments.of(ErrorClass.ERR_COUNT, "{\"vector\":{\"count\":-7,\"blocklength\":1,\"stride\":3,\"of\":\"int\"}}",
                        new String[] {"-7", "at $.vector"}),
                Arguments.of(ErrorClass.ERR_ARG, "{\"contiguous\":{\"count\":2,\"of\":{\"hvector\":{\"count\":1,"
                        + "\"blocklength\":-3,\"stride_bytes\":3,\"of\":\"int\"}}}}",
                        new String[] {"-3", "at $.contiguous.of.hvector"}),
                Arguments.of(ErrorClass.ERR_DIMS, "{\"subarray\":{\"sizes\":[],\"subsizes\":[],\"starts\":[],"
                        + "\"order\":\"C\",\"of\":\"int\"}}", new String[] {"at $.subarray"}),
                Arguments.of(ErrorClass.ERR_ARG, "{\"indexed\":{\"blocklengths\":[1,2],\"displacements\":[0],"
                        + "\"of\":\"int\"}}", new String[] {"blocklengths", "displacements", "at $.indexed"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedDescriptionIsErrArgNamingThePath(String what, String json, String[] fragments) {
        assertMpiError(ErrorClass.ERR_ARG, () -> DatatypeJson.parse(json), fragments);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("refusedByTheEngine")
    void refusedArgumentKeepsItsClassAndGainsThePath(ErrorClass expected, String json, String[] fragments) {
        assertMpiError(expected, () -> DatatypeJson.parse(json), fragments);
    }

    private static String subarray(String order) {
        return "{\"subarray\":{\"sizes\":[4],\"subsizes\":[2],\"starts\":[1],\"order\":" + order + ",\"of\":\"int\"}}";
    }

    private static Arguments bad(String what, String json, String... fragments) {
        return Arguments.of(what, json, fragments);
    }
}
