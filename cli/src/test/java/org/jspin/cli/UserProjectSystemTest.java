package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own project, outside this repository, as {@code jspin new} writes it: built by Maven
 * (its own test included) against the artifacts the suite installed, with no setting of the
 * user's, and run as processes under {@code jspin run}. Bad names are refused, writing nothing.
 */
class UserProjectSystemTest {
    @TempDir
    Path dir;

    private SpawnedProcess build;
    private SpawnedProcess run;

    @AfterEach
    void stop() {
        for (SpawnedProcess p : new SpawnedProcess[] {build, run}) {
            if (p != null) {
                p.close();
            }
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aNewProjectBuildsAsWrittenPassesItsTestAndRunsUnderJspinRun() throws IOException, InterruptedException {
        InProcess.Run made = InProcess.run("new", "ring", "--package", "org.example.ring", "--in", dir.toString());
        assertEquals(0, made.status(), made.err());
        Path project = dir.resolve("ring");
        assertTrue(Files.isRegularFile(project.resolve("src/main/java/org/example/ring/Main.java")), made.out());
        assertTrue(Files.isRegularFile(project.resolve("src/test/java/org/example/ring/MainTest.java")), made.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(project), left.toList(), "nothing beside the project");
        }

        Path mvn = SpawnedProcess.onPath("mvn").orElseGet(() -> fail("mvn is not on the PATH (./jspin installs Maven)"));
        build = SpawnedProcess.start(List.of(mvn.toString(), "-B", "-o", "-f", project.resolve("pom.xml").toString(),
                "package"), Map.of("JAVA_HOME", System.getProperty("java.home"), "MAVEN_OPTS",
                "--sun-misc-unsafe-memory-access=allow"));
        assertEquals(0, build.awaitExit(Duration.ofSeconds(180)), "the user's build\n" + build.transcript());
        assertTrue(build.out().contains("Tests run: 1, Failures: 0, Errors: 0"), "its own test ran\n" + build.transcript());
        Path jar = project.resolve("target/ring-1.0.jar");
        assertTrue(Files.isRegularFile(jar), "jar built");

        run = SpawnedProcess.start(SpawnedProcess.jspin("run", "-n", "3", "--timeout", "50", "--classpath",
                jar.toString(), "org.example.ring.Main"), Map.of());
        assertEquals(0, run.awaitExit(Duration.ofSeconds(55)), run.transcript());
        assertTrue(run.out().contains("[0] ring of 3 ranks, token 3"), run.transcript());
    }

    @Test
    void badNamesAndAnExistingDirectoryAreRefusedNamingThemAndNothingIsWritten() throws IOException {
        InProcess.Run upper = InProcess.run("new", "Ring", "--in", dir.toString());
        assertEquals(2, upper.status());
        assertTrue(upper.err().contains("ERR_ARG") && upper.err().contains("'Ring'"), upper.err());
        InProcess.Run pkg = InProcess.run("new", "ring", "--package", "org.Example", "--in", dir.toString());
        assertEquals(2, pkg.status());
        assertTrue(pkg.err().contains("--package") && pkg.err().contains("'org.Example'"), pkg.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "nothing written");
        }
        Files.createDirectories(dir.resolve("taken"));
        InProcess.Run taken = InProcess.run("new", "taken", "--in", dir.toString());
        assertEquals(2, taken.status());
        assertTrue(taken.err().contains("already exists"), taken.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("taken")), left.toList(), "nothing beside what was there");
        }
    }
}
