package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URL;
import java.net.URLClassLoader;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/**
 * {@code Datatype.BYTE} ... {@code Datatype.DOUBLE} must be usable whichever engine class a program
 * touches first. Class initialisation happens once per JVM, so each scenario loads the engine
 * afresh in its own class loader.
 */
class NamedTypeInitOrderTest {
    private static final String[] CONSTANTS = {"BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"};

    /** A loader that sees the engine's, the base module's and Jackson's classes but shares none of them with this JVM. */
    private static URLClassLoader freshEngine() {
        return new URLClassLoader(new URL[] {location(Datatype.class), location(MpiException.class), location(ObjectMapper.class),
                location(JsonFactory.class), location(JsonProperty.class)}, ClassLoader.getPlatformClassLoader());
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    private static void assertConstantsSet(ClassLoader loader) throws Exception {
        Class<?> datatype = Class.forName("org.jspin.datatype.Datatype", true, loader);
        for (String name : CONSTANTS) {
            Object value = datatype.getField(name).get(null);
            assertNotNull(value, "Datatype." + name);
            assertEquals(name.toLowerCase(java.util.Locale.ROOT), value.toString(), "Datatype." + name);
        }
    }

    @Test
    void constantsAreSetWhenDatatypeIsTouchedFirst() throws Exception {
        try (URLClassLoader loader = freshEngine()) {
            Class.forName("org.jspin.datatype.Datatype", true, loader);
            assertConstantsSet(loader);
        }
    }

    @Test
    void constantsAreSetWhenNamedTypeIsTouchedFirst() throws Exception {
        try (URLClassLoader loader = freshEngine()) {
            // e.g. NamedType.all() or NamedType.byName("int") as the program's first engine call
            Class.forName("org.jspin.datatype.NamedType", true, loader);
            assertConstantsSet(loader);
        }
    }

    @Test
    void constantsAreSetWhenTheFirstCallParsesANamedType() throws Exception {
        try (URLClassLoader loader = freshEngine()) {
            // what "typeinfo int.json" does: the JSON reader looks the name up in NamedType
            Class<?> json = Class.forName("org.jspin.datatype.json.DatatypeJson", true, loader);
            json.getMethod("parse", String.class).invoke(null, "\"int\"");
            assertConstantsSet(loader);
        }
    }
}
