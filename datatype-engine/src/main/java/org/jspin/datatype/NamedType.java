package org.jspin.datatype;

import java.util.List;

/** A predefined type: byte, short, int, long, float or double. Its lb is 0 and its extent its size. */
public final class NamedType extends Datatype {
    static final NamedType BYTE = new NamedType("byte", 1);
    static final NamedType SHORT = new NamedType("short", 2);
    static final NamedType INT = new NamedType("int", 4);
    static final NamedType LONG = new NamedType("long", 8);
    static final NamedType FLOAT = new NamedType("float", 4);
    static final NamedType DOUBLE = new NamedType("double", 8);

    private static final List<NamedType> ALL = List.of(BYTE, SHORT, INT, LONG, FLOAT, DOUBLE);

    private final String name;

    private NamedType(String name, long size) {
        super(new Footprint.Bounds(size, 0, size, 0, size));
        this.name = name;
    }

    /** @return every named type */
    public static List<NamedType> all() {
        return ALL;
    }

    /**
     * @param name a name of {@code DATATYPE-JSON.md} ("byte", "short", "int", "long", "float", "double")
     * @return the named type, or null if there is none of that name
     */
    public static NamedType byName(String name) {
        for (NamedType t : ALL) {
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
