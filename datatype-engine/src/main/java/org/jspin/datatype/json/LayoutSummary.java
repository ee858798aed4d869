package org.jspin.datatype.json;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;

/**
 * The layout summary ("typeinfo") of {@code DATATYPE-JSON.md}: a type's bounds plus the flattened,
 * merged regions of {@code count} elements, written as one line of JSON.
 */
public final class LayoutSummary {
    private LayoutSummary() {
    }

    /**
     * Appends the summary of {@code count} elements of {@code type} to {@code out}, as one JSON object
     * without a newline. Streams the regions: the output is the only thing that grows with them.
     */
    public static StringBuilder append(Datatype type, long count, StringBuilder out) {
        out.append("{\"size\":").append(type.size())
                .append(",\"extent\":").append(type.extent())
                .append(",\"lb\":").append(type.lb())
                .append(",\"ub\":").append(type.ub())
                .append(",\"true_lb\":").append(type.trueLb())
                .append(",\"true_extent\":").append(type.trueExtent())
                .append(",\"count\":").append(count)
                .append(",\"regions\":[");
        RegionIterator it = type.regions(count);
        boolean first = true;
        while (it.advance()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append('[').append(it.offset()).append(',').append(it.length()).append(']');
        }
        return out.append("]}");
    }

    /** @return the summary of {@code count} elements of {@code type} as one line of JSON */
    public static String of(Datatype type, long count) {
        return append(type, count, new StringBuilder(256)).toString();
    }
}
