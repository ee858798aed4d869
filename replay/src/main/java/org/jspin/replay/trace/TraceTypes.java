package org.jspin.replay.trace;

import java.util.HashMap;
import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.replay.cost.MessageType;

/**
 * The datatypes a trace declares, as {@link MessageType}s built with the datatype engine; one
 * description is parsed once for the whole job however many ranks declare it.
 */
final class TraceTypes {
    private final Map<String, MessageType> byJson = new HashMap<>();

    /** @return the message type of a description (throws the engine's MpiException when malformed) */
    MessageType of(String json) {
        MessageType known = byJson.get(json);
        if (known != null) return known;
        Datatype type = DatatypeJson.parse(json);
        MessageType made = new MessageType(json, type.size(), contiguous(type));
        byJson.put(json, made);
        return made;
    }

    /** Two elements laid end to end are one block of bytes exactly when every count of them is. */
    static boolean contiguous(Datatype type) {
        if (type.size() == 0) return true;
        if (type.extent() != type.size()) return false;
        RegionIterator regions = type.regions(2);
        if (!regions.advance()) return false;
        return regions.length() == 2 * type.size() && !regions.advance();
    }
}
