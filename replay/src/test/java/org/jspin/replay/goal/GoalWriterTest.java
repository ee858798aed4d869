package org.jspin.replay.goal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.replay.schedule.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoalWriterTest {
    private static final String TEXT = """
            num_ranks 2
            rank 0 {
            a: send 16b to 1 tag 4 cpu 1 nic 2
            b: calc 100 cpu 1
            c: recv 4b from -1 tag -1
            b requires a
            c irequires b
            c requires a
            }
            rank 1 {
            x: recv 16b from 0 tag 4
            }
            """;

    private static String write(Schedule s) throws IOException {
        StringWriter out = new StringWriter();
        GoalWriter.write(s, out);
        return out.toString();
    }

    @Test
    void writesTxt2binsSyntaxWithDependenciesInTheirOrder() throws IOException {
        String written = write(GoalReader.read("in.goal", new StringReader(TEXT)));
        assertEquals("""
                num_ranks 2

                rank 0 {
                l0: send 16b to 1 tag 4 cpu 1 nic 2
                l1: calc 100 cpu 1
                l2: recv 4b from -1 tag -1
                l1 requires l0
                l2 requires l0
                l2 irequires l1
                }

                rank 1 {
                l0: recv 16b from 0 tag 4
                }
                """, written);
    }

    @Test
    void whatItWritesReadsBackTheSame(@TempDir Path dir) throws IOException {
        Schedule s = GoalReader.read("in.goal", new StringReader(TEXT));
        Path file = dir.resolve("out.goal");
        GoalWriter.write(s, file);
        assertEquals(write(s), write(GoalReader.read(file)));
        try (var files = Files.list(dir)) {
            assertTrue(files.allMatch(file::equals), "no temporary file is left");
        }
    }
}
