package org.jspin.mpi.trace;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;

/**
 * The datatypes a trace file has declared: each description once per file, with ids from 1 in the
 * order of first use. Two types with the same description share an id.
 */
final class TraceTypes {
    private final TraceWriter out;
    private final Map<Datatype, Long> byType = new IdentityHashMap<>();
    private final Map<String, Long> byDescription = new HashMap<>();
    // a rank usually sends one type many times in a row: the last one is looked up without hashing
    private Datatype last;
    private long lastId;

    TraceTypes(TraceWriter out) {
        this.out = out;
    }

    /** @return the id of {@code type}, declaring it first if this file has not yet */
    long idOf(Datatype type) {
        if (type == last) {
            return lastId;
        }
        Long id = byType.get(type);
        if (id == null) {
            String json = DatatypeJson.write(type);
            id = byDescription.get(json);
            if (id == null) {
                id = (long) byDescription.size() + 1;
                byDescription.put(json, id);
                out.type(id, json);
            }
            byType.put(type, id);
        }
        last = type;
        lastId = id;
        return id;
    }
}
