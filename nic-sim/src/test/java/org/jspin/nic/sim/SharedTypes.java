package org.jspin.nic.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.SharedFiles;
import org.jspin.datatype.json.DatatypeJson;

/** The golden datatypes and application layouts of {@code ../shared} ({@link SharedFiles} finds it), as cases. */
final class SharedTypes {
    /** One datatype with a count, named after its source. */
    record Case(String name, Datatype type, long count) {
        @Override
        public String toString() {
            return name;
        }
    }

    private SharedTypes() {
    }

    static Path root() {
        return SharedFiles.root();
    }

    /** @return every case of a golden JSON Lines file, committed */
    static List<Case> golden(String relative) {
        List<Case> out = new ArrayList<>();
        for (JsonNode c : SharedFiles.jsonLines(relative)) {
            out.add(new Case(relative + ":" + c.get("name").asText(), DatatypeJson.read(c.get("type")).commit(),
                    c.get("count").asLong()));
        }
        if (out.isEmpty()) {
            throw new IllegalStateException(relative + " holds no cases");
        }
        return out;
    }

    /** @return every application layout ({@code layouts/*.json}), count 1, committed, in name order */
    static List<Case> layouts() {
        try (Stream<Path> files = Files.list(root().resolve("layouts"))) {
            List<Case> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(new Case("layouts/" + f.getFileName(), DatatypeJson.parse(Files.readString(f)).commit(), 1));
            }
            if (out.isEmpty()) {
                throw new IllegalStateException("no layouts in " + root().resolve("layouts"));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every golden case and every layout */
    static Stream<Case> all() {
        return Stream.of(golden("golden/handpicked.jsonl"), golden("golden/random-public.jsonl"), layouts())
                .flatMap(List::stream);
    }
}
