package org.jspin.bench.pack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * Finds the project's {@code shared/} directory (it holds {@code layouts/}), which lives beside the
 * repository rather than in it.
 *
 * <p>Looked for, in order: the system property {@code jspin.shared} (surefire sets it), the
 * environment variable {@code JSPIN_SHARED}, then {@code ../shared} relative to the working
 * directory and to its parent (so both {@code main/} and {@code main/bench/} work as the working
 * directory). An explicitly given location that is not a shared directory is an error rather than
 * a reason to guess further, so a typo never silently measures some other copy.
 */
public final class SharedDir {
    /** System property naming the shared directory. */
    public static final String PROPERTY = "jspin.shared";
    /** Environment variable naming the shared directory. */
    public static final String ENV = "JSPIN_SHARED";
    /** {@code -Djspin.shared} or {@code JSPIN_SHARED}. */
    public static final Setting<String> LOCATION = Setting.text(PROPERTY, null,
            "the shared directory of golden files and application layouts (else ../shared is looked for)").orEnvironment(ENV);

    private SharedDir() {
    }

    /**
     * @return the shared directory
     * @throws IllegalStateException if it cannot be found; the message lists every place tried
     */
    public static Path locate() {
        Settings.Effective<String> given = Settings.current().effective(LOCATION);
        String explicit = given.value();
        String source = given.origin() == Settings.Origin.PROPERTY ? "-D" + PROPERTY : "$" + ENV;
        if (explicit != null) {
            Path dir = Path.of(explicit);
            if (!isShared(dir)) {
                throw new IllegalStateException(source + " = " + dir.toAbsolutePath()
                        + " is not the shared directory (no layouts/ in it)");
            }
            return dir;
        }
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> tried = new ArrayList<>();
        for (Path base = cwd; base != null && tried.size() < 2; base = base.getParent()) {
            Path dir = base.resolveSibling("shared");
            if (base.getParent() == null) {
                break;
            }
            tried.add(dir.normalize());
            if (isShared(dir)) {
                return dir.normalize();
            }
        }
        throw new IllegalStateException("shared directory not found: tried " + tried + "; set -D" + PROPERTY
                + "=/path/to/shared or $" + ENV);
    }

    /** @return the directory of application layouts ({@code shared/layouts}) */
    public static Path layouts() {
        return locate().resolve("layouts");
    }

    private static boolean isShared(Path dir) {
        return Files.isDirectory(dir.resolve("layouts"));
    }
}
