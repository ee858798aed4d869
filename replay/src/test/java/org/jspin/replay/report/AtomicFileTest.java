package org.jspin.replay.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    private static List<Path> list(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void writesTheFileWithAPlainFilesPermissionsAndLeavesNoTemporary(@TempDir Path dir) throws IOException {
        Path file = AtomicFile.write(dir.resolve("sub/a.txt"), tmp -> Files.writeString(tmp, "new"));
        assertEquals("new", Files.readString(file));
        assertEquals(List.of(file), list(dir.resolve("sub")));
        Path plain = Files.writeString(dir.resolve("sub/plain.txt"), "x");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file));
    }

    @Test
    void aFailedWriteKeepsTheOldFileAndLeavesNoTemporary(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a.txt"), "old");
        MpiException e = assertThrows(MpiException.class, () -> AtomicFile.write(file, tmp -> {
            Files.writeString(tmp, "half");
            throw new IOException("disk full");
        }));
        assertTrue(e.getMessage().contains(file + ": disk full"), e.getMessage());
        assertEquals("old", Files.readString(file));
        assertEquals(List.of(file), list(dir));
    }
}
