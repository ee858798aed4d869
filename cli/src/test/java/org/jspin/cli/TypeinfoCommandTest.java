package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jspin typeinfo}, run in-process as the shell runs it. */
class TypeinfoCommandTest {
    @TempDir
    Path dir;

    @Test
    void printsTheLayoutSummaryOfAFile() throws IOException {
        Path f = Files.writeString(dir.resolve("t.json"),
                "{\"vector\": {\"count\": 2, \"blocklength\": 1, \"stride\": 1024, \"of\": \"double\"}}");
        InProcess.Run r = run("typeinfo", "--count", "2", f.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("{\"size\":16,\"extent\":8200,\"lb\":0,\"ub\":8200,\"true_lb\":0,\"true_extent\":8200,"
                + "\"count\":2,\"regions\":[[0,8],[8192,16],[16392,8]]}\n", r.out());
    }

    @Test
    void batchPrintsOneLinePerCaseInOrderAndMarksBadLines() throws IOException {
        Path f = Files.write(dir.resolve("cases.jsonl"), List.of(
                "{\"name\": \"a\", \"type\": \"int\", \"count\": 3}",
                "{\"name\": \"b\", \"type\": {\"contiguous\": {\"count\": -1, \"of\": \"int\"}}, \"count\": 1}",
                "{\"type\": {\"resized\": {\"lb\": -4, \"extent\": 8, \"of\": \"int\"}}, \"count\": 2, \"expect\": 0}",
                "{\"type\": \"int\", \"count\": \"abc\"}"));
        InProcess.Run r = run("typeinfo", "--batch", f.toString());
        String[] lines = r.out().split("\n");
        assertEquals(4, lines.length, r.out());
        assertTrue(lines[3].startsWith("{\"error\":") && lines[3].contains("abc"), lines[3]);
        assertTrue(lines[0].endsWith("\"count\":3,\"regions\":[[0,12]]}"), lines[0]);
        assertTrue(lines[1].startsWith("{\"error\":") && lines[1].contains("ERR_COUNT") && lines[1].contains("-1"),
                lines[1]);
        assertTrue(lines[2].contains("\"lb\":-4") && lines[2].endsWith("\"regions\":[[0,4],[8,4]]}"), lines[2]);
        assertEquals(1, r.status(), "a failed case makes the batch exit 1");
    }

    @Test
    void malformedJsonIsAClearErrorNotAStackTrace() throws IOException {
        Path f = Files.writeString(dir.resolve("bad.json"), "{\"vector\": {\"count\": 2, \"of\": \"double\"}}");
        InProcess.Run r = run("typeinfo", f.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("ERR_ARG") && r.err().contains("blocklength"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void aMissingFileIsNamed() {
        InProcess.Run r = run("typeinfo", dir.resolve("nope.json").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("nope.json"), r.err());
    }
}
