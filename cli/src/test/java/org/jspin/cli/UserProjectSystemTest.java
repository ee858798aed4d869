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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own project, outside this repository: a pom with the one dependency README names
 * ({@code org.jspin:jspin-runtime}), built by Maven against the artifacts the suite installed, and run
 * as two processes under {@code jspin run}.
 */
class UserProjectSystemTest {
    private static final String POM = """
            <?xml version="1.0" encoding="UTF-8"?>
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.example</groupId>
              <artifactId>ring</artifactId>
              <version>1.0</version>
              <properties>
                <maven.compiler.release>25</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <dependencies>
                <dependency>
                  <groupId>org.jspin</groupId>
                  <artifactId>jspin-runtime</artifactId>
                  <version>0.1.0-SNAPSHOT</version>
                </dependency>
              </dependencies>
              <build>
                <plugins>
                  <plugin>
                    <groupId>org.apache.maven.plugins</groupId>
                    <artifactId>maven-compiler-plugin</artifactId>
                    <version>3.14.1</version>
                  </plugin>
                  <plugin>
                    <groupId>org.apache.maven.plugins</groupId>
                    <artifactId>maven-surefire-plugin</artifactId>
                    <version>3.5.4</version>
                  </plugin>
                  <plugin>
                    <groupId>org.apache.maven.plugins</groupId>
                    <artifactId>maven-jar-plugin</artifactId>
                    <version>3.4.2</version>
                  </plugin>
                </plugins>
              </build>
            </project>
            """;

    private static final String RING = """
            package com.example;

            import java.lang.foreign.MemorySegment;

            import org.jspin.datatype.Datatype;
            import org.jspin.mpi.Comm;
            import org.jspin.mpi.Mpi;

            /** Passes a token round a ring of ranks, each adding its rank. */
            public final class Ring {
                public static void main(String[] args) {
                    try (Mpi mpi = Mpi.init()) {
                        Comm world = mpi.world();
                        int next = (world.rank() + 1) % world.size();
                        int prev = (world.rank() + world.size() - 1) % world.size();
                        long[] token = {0};
                        if (world.rank() == 0) {
                            world.send(MemorySegment.ofArray(token), 1, Datatype.LONG, next, 0);
                            world.recv(MemorySegment.ofArray(token), 1, Datatype.LONG, prev, 0);
                            System.out.println("ring of " + world.size() + " ranks, token " + token[0]);
                        } else {
                            world.recv(MemorySegment.ofArray(token), 1, Datatype.LONG, prev, 0);
                            token[0] += world.rank();
                            world.send(MemorySegment.ofArray(token), 1, Datatype.LONG, next, 0);
                        }
                    }
                }
            }
            """;

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
    void aProjectWithOneDependencyBuildsAndRunsUnderJspinRun() throws IOException, InterruptedException {
        Files.writeString(dir.resolve("pom.xml"), POM);
        Path src = Files.createDirectories(dir.resolve("src/main/java/com/example"));
        Files.writeString(src.resolve("Ring.java"), RING);
        Path mvn = SpawnedProcess.onPath("mvn").orElseGet(() -> fail("mvn is not on the PATH (./jspin installs Maven)"));
        String javaHome = System.getProperty("java.home");
        build = SpawnedProcess.start(List.of(mvn.toString(), "-B", "-q", "-o", "-DskipTests", "-f",
                dir.resolve("pom.xml").toString(), "package"), Map.of("JAVA_HOME", javaHome, "MAVEN_OPTS",
                "--sun-misc-unsafe-memory-access=allow"));
        assertEquals(0, build.awaitExit(Duration.ofSeconds(180)), "the user's build\n" + build.transcript());
        assertTrue(Files.isRegularFile(dir.resolve("target/ring-1.0.jar")), "jar built");

        run = SpawnedProcess.start(SpawnedProcess.jspin("run", "-n", "2", "--timeout", "50", "--classpath",
                dir.resolve("target/ring-1.0.jar").toString(), "com.example.Ring"), Map.of());
        assertEquals(0, run.awaitExit(Duration.ofSeconds(55)), run.transcript());
        assertTrue(run.out().contains("[0] ring of 2 ranks, token 1"), run.transcript());
    }
}
