package org.jspin.nic.sim.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;

/**
 * An application's receive layout, one of the cases of the layout sweeps.
 *
 * @param name the file name without {@code .json}, e.g. {@code fft2d_recv_P2_N256}
 * @param type the committed datatype
 */
record Layout(String name, Datatype type) {
    /**
     * @param dir   the directory of layouts ({@code ../shared/layouts}), one JSON datatype a file
     * @param quick only the first layout (by name) of each application, the name's part before the first {@code _}
     * @return the layouts in {@code dir}, sorted by file name
     * @throws UncheckedIOException when the directory cannot be read
     */
    static List<Layout> all(Path dir, boolean quick) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Layout> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                String name = f.getFileName().toString().replaceFirst("\\.json$", "");
                out.add(new Layout(name, DatatypeJson.parse(Files.readString(f)).commit()));
            }
            if (quick) {
                // one of each application
                Map<String, Layout> one = new LinkedHashMap<>();
                for (Layout l : out) {
                    one.putIfAbsent(l.name.replaceAll("_.*", ""), l);
                }
                return List.copyOf(one.values());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the layouts in " + dir, e);
        }
    }
}
