package org.jspin.replay.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Writes a file through a temporary sibling moved into place, so that no reader ever sees it half-written
 * and a failed write leaves whatever was there before.
 */
public final class AtomicFile {
    /** What fills the temporary file. */
    @FunctionalInterface
    public interface Content {
        /** Writes the whole content to {@code file}, which does not exist yet. */
        void writeTo(Path file) throws IOException;
    }

    private AtomicFile() {
    }

    /**
     * Writes {@code file} (its directory created if missing) by {@code content}.
     *
     * @return {@code file}
     * @throws MpiException ERR_ARG naming the file when it cannot be written
     */
    public static Path write(Path file, Content content) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            // a plain new file, not Files.createTempFile's owner-only one: the result keeps the umask's permissions
            Path tmp = dir.resolve("." + file.getFileName() + "." + UUID.randomUUID() + ".tmp");
            try {
                content.writeTo(tmp);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }
}
