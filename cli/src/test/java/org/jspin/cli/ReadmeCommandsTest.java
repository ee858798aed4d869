package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command of README.md's {@code sh} blocks, run as a user would from the repository's root, must
 * exit 0, so that none can rot. {@code ./jspin} is this build's command line (a wrapper around the
 * test's class path, since the jar is packaged after the tests), and {@code ../shared} the shared
 * files. Not run: {@code ./jspin test} (the suite itself) and {@code ./jspin install} (the suite
 * installs the artifacts itself).
 */
class ReadmeCommandsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> NOT_RUN = List.of("./jspin test", "./jspin install");
    /** What the main job must say, beyond exiting 0: its check against the serial run and its headline. */
    private static final Map<String, List<String>> SAYS = Map.of("./jspin demo", List.of(
            "Every run is bit-identical to the serial run.", "Projected time per iteration (simulated",
            "  4 nodes (this run's trace): host ", ", sim:auto ", "  64 nodes (64 thread ranks traced): host "));

    private SpawnedProcess running;

    /** What README's commands made in an earlier run of the suite (the project {@code jspin new} writes) goes first. */
    @BeforeAll
    static void fresh() throws IOException {
        Path made = ROOT.resolve("cli/target/readme/hello");
        if (Files.exists(made)) {
            try (Stream<Path> all = Files.walk(made)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @AfterEach
    void stop() {
        if (running != null) {
            running.close();
        }
    }

    /** @return every command of every {@code sh} block, trailing comments removed */
    static List<String> commands() throws IOException {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            if (line.startsWith("```")) {
                in = !in && line.equals("```sh");
                continue;
            }
            if (in && !line.isBlank() && !line.stripLeading().startsWith("#")) {
                int comment = line.indexOf("  #");
                out.add((comment >= 0 ? line.substring(0, comment) : line).strip());
            }
        }
        return out;
    }

    static Stream<String> runnable() {
        try {
            return commands().stream().filter(c -> NOT_RUN.stream().noneMatch(c::equals));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theReadmeHasCommandsAndOnlyTheTwoNamedAreLeftOut() throws IOException {
        List<String> all = commands();
        assertTrue(all.size() >= 10, all.toString());
        assertTrue(all.contains("./jspin demo") && all.contains("./jspin test"), all.toString());
        assertEquals(Set.copyOf(NOT_RUN), all.stream().filter(c -> runnable().noneMatch(c::equals))
                .collect(Collectors.toSet()), "only ./jspin test and ./jspin install are not run");
    }

    @Test
    void theReadmeIsATourOfAtMost450Lines() throws IOException {
        // measurements belong in docs/PERFORMANCE.md; the README stays a tour a new user reads through
        int lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines <= 450, "README.md has " + lines + " lines; move detail to docs/");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runnable")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void runs(String command) throws IOException, InterruptedException {
        Path dir = workdir();
        running = SpawnedProcess.start(List.of("bash", "-c", "cd " + dir + " && " + command), Map.of());
        int code = running.awaitExit(Duration.ofSeconds(280));
        assertEquals(0, code, command + "\n" + running.transcript());
        assertFalse(running.out().isBlank(), "it said something\n" + running.transcript());
        for (String said : SAYS.getOrDefault(command, List.of())) {
            assertTrue(running.out().contains(said), "it says '" + said + "'\n" + running.transcript());
        }
    }

    /**
     * A directory laid out as the repository's root: {@code jspin} runs this build's command line, and
     * {@code ../shared} is the shared files.
     */
    private static Path workdir() throws IOException {
        Path base = ROOT.resolve("cli/target/readme");
        Path dir = base.resolve("root");
        Files.createDirectories(dir);
        Path shared = base.resolve("shared");
        if (!Files.exists(shared)) {
            Files.createSymbolicLink(shared, Path.of(System.getProperty("jspin.shared")).toAbsolutePath().normalize());
        }
        StringBuilder script = new StringBuilder("#!/usr/bin/env bash\nexec");
        for (String part : SpawnedProcess.javaCommand()) {
            script.append(" '").append(part.replace("'", "'\\''")).append('\'');
        }
        script.append(" '-Djspin.shared=").append(shared).append("' ").append(Main.class.getName()).append(" \"$@\"\n");
        Path jspin = dir.resolve("jspin");
        Files.writeString(jspin, script);
        Files.setPosixFilePermissions(jspin, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }
}
