package org.jspin.datatype;

import java.util.List;

/**
 * A predefined type: byte, short, int, long, float or double ({@link Datatype#BYTE} ...). Its lb is 0
 * and its extent its size.
 */
public final class NamedType extends Datatype {
    private final String name;

    NamedType(String name, long size) {
        super(new Footprint.Bounds(size, 0, size, 0, size));
        this.name = name;
    }

    /** @return every named type */
    public static List<NamedType> all() {
        return List.of(Datatype.BYTE, Datatype.SHORT, Datatype.INT, Datatype.LONG, Datatype.FLOAT, Datatype.DOUBLE);
    }

    /**
     * @param name a name of {@code DATATYPE-JSON.md} ("byte", "short", "int", "long", "float", "double")
     * @return the named type, or null if there is none of that name
     */
    public static NamedType byName(String name) {
        for (NamedType t : all()) {
            if (t.name.equals(name)) {
                return t;
            }
        }
        return null;
    }

    /** @return the name of this type in the JSON format */
    public String name() {
        return name;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.NAMED, new long[0], new long[0], List.of());
    }

    @Override
    public String toString() {
        return name;
    }
}
