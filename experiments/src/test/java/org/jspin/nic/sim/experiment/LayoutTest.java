package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The layouts are the directory's JSON files by name; quick keeps the first of each application. */
class LayoutTest {
    @TempDir
    Path dir;

    private void write(String file, int doubles) throws IOException {
        Files.writeString(dir.resolve(file), "{\"contiguous\": {\"count\": " + doubles + ", \"of\": \"double\"}}");
    }

    @Test
    void allReadsTheJsonFilesSortedAndQuickKeepsOnePerApplication() throws IOException {
        write("wrf_b.json", 3);
        write("app_b.json", 2);
        write("app_a.json", 1);
        Files.writeString(dir.resolve("INDEX.md"), "not a layout");

        List<Layout> all = Layout.all(dir, false);
        assertEquals(List.of("app_a", "app_b", "wrf_b"), all.stream().map(Layout::name).toList());
        assertEquals(List.of(8L, 16L, 24L), all.stream().map(l -> l.type().packSize(1)).toList());
        assertTrue(all.getFirst().type().isCommitted());

        assertEquals(List.of("app_a", "wrf_b"), Layout.all(dir, true).stream().map(Layout::name).toList());
    }

    @Test
    void aDirectoryThatCannotBeReadIsNamed() {
        Path missing = dir.resolve("missing");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Layout.all(missing, false));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }
}
