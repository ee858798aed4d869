package org.jspin.datatype.json;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jspin.datatype.ContiguousType;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.DupType;
import org.jspin.datatype.HIndexedBlockType;
import org.jspin.datatype.HIndexedType;
import org.jspin.datatype.HVectorType;
import org.jspin.datatype.IndexedBlockType;
import org.jspin.datatype.IndexedType;
import org.jspin.datatype.NamedType;
import org.jspin.datatype.Order;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.StructType;
import org.jspin.datatype.SubarrayType;
import org.jspin.datatype.VectorType;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Reads and writes the JSON datatype description of {@code DATATYPE-JSON.md}. Reading is strict: an
 * unknown constructor or argument, a missing argument, a non-integer where an integer belongs, or
 * a constructor argument the engine refuses all end in an {@link MpiException} whose message gives
 * the JSON path of the offending value.
 */
public final class DatatypeJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** Integers below this are exact as JSON doubles; from it on "9007199254740993.0" may already have rounded. */
    private static final double EXACT_DOUBLE = 0x1p53;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DatatypeJson() {
    }

    /** @return the shared Jackson mapper (for callers that read files holding descriptions) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Parses one description from JSON text. */
    public static Datatype parse(String json) {
        JsonNode node;
        try {
            node = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "malformed datatype JSON: " + e.getOriginalMessage(), e);
        }
        if (node == null || node.isMissingNode()) {
            throw new MpiException(ErrorClass.ERR_ARG, "malformed datatype JSON: empty input");
        }
        return read(node);
    }

    /** Reads one description from a parsed JSON tree. */
    public static Datatype read(JsonNode node) {
        return read(node, "$");
    }

    private static Datatype read(JsonNode node, String path) {
        if (node == null || node.isNull()) {
            throw bad(path, "a datatype is required");
        }
        if (node.isTextual()) {
            NamedType t = NamedType.byName(node.asText());
            if (t == null) {
                throw bad(path, "unknown named type \"" + node.asText()
                        + "\" (expected byte, short, int, long, float or double)");
            }
            return t;
        }
        if (!node.isObject() || node.size() != 1) {
            throw bad(path, "expected a type name or an object with exactly one constructor key, got "
                    + abbreviate(node));
        }
        Map.Entry<String, JsonNode> e = node.properties().iterator().next();
        String ctor = e.getKey();
        JsonNode a = e.getValue();
        String p = path + "." + ctor;
        if (!a.isObject()) {
            throw bad(p, "constructor arguments must be an object, got " + abbreviate(a));
        }
        try {
            return switch (ctor) {
                case "contiguous" -> {
                    allow(a, p, "count", "of");
                    yield Datatype.contiguous(integer(a, p, "count"), read(a.get("of"), p + ".of"));
                }
                case "vector" -> {
                    allow(a, p, "count", "blocklength", "stride", "of");
                    yield Datatype.vector(integer(a, p, "count"), integer(a, p, "blocklength"),
                            integer(a, p, "stride"), read(a.get("of"), p + ".of"));
                }
                case "hvector" -> {
                    allow(a, p, "count", "blocklength", "stride_bytes", "of");
                    yield Datatype.hvector(integer(a, p, "count"), integer(a, p, "blocklength"),
                            integer(a, p, "stride_bytes"), read(a.get("of"), p + ".of"));
                }
                case "indexed" -> {
                    allow(a, p, "blocklengths", "displacements", "of");
                    yield Datatype.indexed(integers(a, p, "blocklengths"), integers(a, p, "displacements"),
                            read(a.get("of"), p + ".of"));
                }
                case "hindexed" -> {
                    allow(a, p, "blocklengths", "displacements_bytes", "of");
                    yield Datatype.hindexed(integers(a, p, "blocklengths"), integers(a, p, "displacements_bytes"),
                            read(a.get("of"), p + ".of"));
                }
                case "indexed_block" -> {
                    allow(a, p, "blocklength", "displacements", "of");
                    yield Datatype.indexedBlock(integer(a, p, "blocklength"), integers(a, p, "displacements"),
                            read(a.get("of"), p + ".of"));
                }
                case "hindexed_block" -> {
                    allow(a, p, "blocklength", "displacements_bytes", "of");
                    yield Datatype.hindexedBlock(integer(a, p, "blocklength"),
                            integers(a, p, "displacements_bytes"), read(a.get("of"), p + ".of"));
                }
                case "struct" -> {
                    allow(a, p, "blocklengths", "displacements_bytes", "types");
                    JsonNode ts = field(a, p, "types");
                    if (!ts.isArray()) {
                        throw bad(p + ".types", "expected an array of datatypes, got " + abbreviate(ts));
                    }
                    Datatype[] types = new Datatype[ts.size()];
                    for (int i = 0; i < types.length; i++) {
                        types[i] = read(ts.get(i), p + ".types[" + i + "]");
                    }
                    yield Datatype.struct(integers(a, p, "blocklengths"), integers(a, p, "displacements_bytes"),
                            types);
                }
                case "subarray" -> {
                    allow(a, p, "sizes", "subsizes", "starts", "order", "of");
                    yield Datatype.subarray(integers(a, p, "sizes"), integers(a, p, "subsizes"),
                            integers(a, p, "starts"), order(a, p), read(a.get("of"), p + ".of"));
                }
                case "resized" -> {
                    allow(a, p, "lb", "extent", "of");
                    yield Datatype.resized(integer(a, p, "lb"), integer(a, p, "extent"),
                            read(a.get("of"), p + ".of"));
                }
                default -> throw bad(path, "unknown constructor \"" + ctor + "\"");
            };
        } catch (MpiException ex) {
            if (ex.getMessage().contains(" at $")) {
                throw ex;
            }
            throw new MpiException(ex.errorClass(), strip(ex) + " at " + p, ex);
        }
    }

    private static String strip(MpiException ex) {
        String m = ex.getMessage();
        String prefix = ex.errorClass() + ": ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    private static void allow(JsonNode a, String path, String... names) {
        Set<String> ok = Set.of(names);
        for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!ok.contains(f)) {
                throw bad(path, "unknown argument \"" + f + "\" (expected " + String.join(", ", names) + ")");
            }
        }
    }

    private static JsonNode field(JsonNode a, String path, String name) {
        JsonNode v = a.get(name);
        if (v == null) {
            throw bad(path, "missing argument \"" + name + "\"");
        }
        return v;
    }

    private static long integer(JsonNode a, String path, String name) {
        return integerValue(field(a, path, name), path + "." + name);
    }

    private static long integerValue(JsonNode v, String path) {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.asLong();
        }
        double d = v.asDouble();
        if (v.isFloatingPointNumber() && d == Math.rint(d) && Math.abs(d) < EXACT_DOUBLE) {
            return (long) d; // 3.0 is 3; larger doubles may already have been rounded, so they are refused
        }
        throw bad(path, "expected a 64-bit integer, got " + abbreviate(v));
    }

    private static long[] integers(JsonNode a, String path, String name) {
        JsonNode v = field(a, path, name);
        if (!v.isArray()) {
            throw bad(path + "." + name, "expected an array of integers, got " + abbreviate(v));
        }
        long[] out = new long[v.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = integerValue(v.get(i), path + "." + name + "[" + i + "]");
        }
        return out;
    }

    private static Order order(JsonNode a, String path) {
        JsonNode v = field(a, path, "order");
        String s = v.isTextual() ? v.asText() : "";
        return switch (s) {
            case "C" -> Order.C;
            case "F" -> Order.FORTRAN;
            default -> throw bad(path + ".order", "expected \"C\" or \"F\", got " + abbreviate(v));
        };
    }

    private static MpiException bad(String path, String what) {
        return new MpiException(ErrorClass.ERR_ARG, "malformed datatype JSON: " + what + " at " + path);
    }

    private static String abbreviate(JsonNode n) {
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    // ---- writing ---------------------------------------------------------------------------------

    /** @return the description of {@code type} as compact JSON text */
    public static String write(Datatype type) {
        try {
            return MAPPER.writeValueAsString(tree(type));
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_INTERN, "cannot write datatype JSON: " + e.getMessage(), e);
        }
    }

    /**
     * @return the description of {@code type} as a JSON tree. A dup has no constructor of its own in
     *         the format and is written as the type it duplicates (the same type map and bounds).
     */
    public static JsonNode tree(Datatype type) {
        return switch (type) {
            case NamedType n -> F.textNode(n.name());
            case DupType d -> tree(d.old());
            case ContiguousType c -> ctor("contiguous", F.objectNode().put("count", c.count())
                    .set("of", tree(c.old())));
            case VectorType v -> ctor("vector", F.objectNode().put("count", v.count())
                    .put("blocklength", v.blocklength()).put("stride", v.stride()).set("of", tree(v.old())));
            case HVectorType v -> ctor("hvector", F.objectNode().put("count", v.count())
                    .put("blocklength", v.blocklength()).put("stride_bytes", v.strideBytes())
                    .set("of", tree(v.old())));
            case IndexedType x -> ctor("indexed", args("blocklengths", x.blocklengths())
                    .<ObjectNode>set("displacements", array(x.displacements())).set("of", tree(x.old())));
            case HIndexedType x -> ctor("hindexed", args("blocklengths", x.blocklengths())
                    .<ObjectNode>set("displacements_bytes", array(x.displacementsBytes())).set("of", tree(x.old())));
            case IndexedBlockType x -> ctor("indexed_block", F.objectNode().put("blocklength", x.blocklength())
                    .<ObjectNode>set("displacements", array(x.displacements())).set("of", tree(x.old())));
            case HIndexedBlockType x -> ctor("hindexed_block", F.objectNode().put("blocklength", x.blocklength())
                    .<ObjectNode>set("displacements_bytes", array(x.displacementsBytes())).set("of", tree(x.old())));
            case StructType s -> {
                ArrayNode ts = F.arrayNode();
                s.types().forEach(t -> ts.add(tree(t)));
                yield ctor("struct", args("blocklengths", s.blocklengths())
                        .<ObjectNode>set("displacements_bytes", array(s.displacementsBytes())).set("types", ts));
            }
            case SubarrayType s -> ctor("subarray", args("sizes", s.sizes())
                    .<ObjectNode>set("subsizes", array(s.subsizes())).<ObjectNode>set("starts", array(s.starts()))
                    .<ObjectNode>put("order", s.order() == Order.C ? "C" : "F").set("of", tree(s.old())));
            case ResizedType r -> ctor("resized", F.objectNode().put("lb", r.lb()).put("extent", r.extent())
                    .set("of", tree(r.old())));
        };
    }

    private static ObjectNode ctor(String name, JsonNode args) {
        ObjectNode o = F.objectNode();
        o.set(name, args);
        return o;
    }

    private static ObjectNode args(String name, long[] values) {
        ObjectNode o = F.objectNode();
        o.set(name, array(values));
        return o;
    }

    private static ArrayNode array(long[] values) {
        ArrayNode a = F.arrayNode(values.length);
        for (long v : values) {
            a.add(v);
        }
        return a;
    }
}
