package org.jspin.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;

/** The golden datatypes and application layouts of {@code ../shared}, found through {@code -Djspin.shared}. */
final class SharedFiles {
    /** One datatype to test with a count: its name, where it came from. */
    record TypeCase(String name, Datatype type, long count) {
    }

    private SharedFiles() {
    }

    /** @return the shared directory; fails loudly if it is missing */
    static Path root() {
        String p = System.getProperty("jspin.shared");
        Path dir = p != null ? Path.of(p) : Path.of("..", "..", "shared");
        if (!Files.isDirectory(dir.resolve("golden")) || !Files.isDirectory(dir.resolve("layouts"))) {
            throw new IllegalStateException("shared golden and layout files not found at " + dir.toAbsolutePath()
                    + " (set -Djspin.shared=/path/to/shared)");
        }
        return dir;
    }

    /** @return every case of a golden JSON Lines file ({@code golden/handpicked.jsonl}, say), committed */
    static List<TypeCase> golden(String relative) {
        List<TypeCase> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(root().resolve(relative))) {
                if (!line.isBlank()) {
                    JsonNode c = DatatypeJson.mapper().readTree(line);
                    out.add(new TypeCase(c.get("name").asText(), DatatypeJson.read(c.get("type")).commit(),
                            c.get("count").asLong()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty()) {
            throw new IllegalStateException(relative + " holds no cases");
        }
        return out;
    }

    /** @return every application layout ({@code layouts/*.json}), count 1, committed, in name order */
    static List<TypeCase> layouts() {
        try (Stream<Path> files = Files.list(root().resolve("layouts"))) {
            List<TypeCase> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                String name = f.getFileName().toString().replace(".json", "");
                out.add(new TypeCase(name, DatatypeJson.parse(Files.readString(f)).commit(), 1));
            }
            if (out.isEmpty()) {
                throw new IllegalStateException("no layouts in " + root().resolve("layouts"));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
