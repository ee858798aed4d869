package org.jspin.datatype;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;

/** Finds {@code ../shared} (golden files, layouts) the way the build passes it: {@code -Djspin.shared}. */
public final class SharedFiles {
    private SharedFiles() {
    }

    /** @return the shared directory; fails loudly if it is missing */
    public static Path root() {
        String p = System.getProperty("jspin.shared");
        Path dir = p != null ? Path.of(p) : Path.of("..", "..", "shared");
        if (!Files.isDirectory(dir.resolve("golden"))) {
            throw new IllegalStateException("shared files not found at " + dir.toAbsolutePath()
                    + " (set -Djspin.shared=/path/to/shared)");
        }
        return dir;
    }

    /** @return every non-empty line of a JSON Lines file under shared/, parsed */
    public static List<JsonNode> jsonLines(String relative) {
        Path f = root().resolve(relative);
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(f)) {
                if (!line.isBlank()) {
                    out.add(DatatypeJson.mapper().readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
