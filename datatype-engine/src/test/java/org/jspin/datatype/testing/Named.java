package org.jspin.datatype.testing;

import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.NamedType;

/**
 * The named types for tests, looked up through {@link NamedType#byName} rather than the constants
 * {@code Datatype.INT} etc.: those constants were found null in a JVM where {@code NamedType} had
 * been initialised before {@code Datatype} ({@code NamedTypeInitOrderTest} covers that), and such a
 * bug should fail that one test, not all of them. Sizes come from DATATYPE-JSON.md, not from the
 * engine.
 */
public final class Named {
    public static final Datatype BYTE = NamedType.byName("byte");
    public static final Datatype SHORT = NamedType.byName("short");
    public static final Datatype INT = NamedType.byName("int");
    public static final Datatype LONG = NamedType.byName("long");
    public static final Datatype FLOAT = NamedType.byName("float");
    public static final Datatype DOUBLE = NamedType.byName("double");

    /** Every named type, in the order of DATATYPE-JSON.md. */
    public static final List<Datatype> ALL = List.of(BYTE, SHORT, INT, LONG, FLOAT, DOUBLE);

    private Named() {
    }

    /** @return the size in bytes DATATYPE-JSON.md gives the named type {@code name} */
    public static long specSize(String name) {
        return switch (name) {
            case "byte" -> 1;
            case "short" -> 2;
            case "int", "float" -> 4;
            case "long", "double" -> 8;
            default -> throw new IllegalArgumentException("not a named type: " + name);
        };
    }
}
