package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceJobTest {
    private final TraceJob job = new TraceJob(2, "halo2d", List.of("--size", "64"), "host", "shm", false);

    @Test
    void isTheFormatsJsonObjectOnOneLine() {
        assertEquals("{\"format\":\"jspin-trace\",\"version\":1,\"ranks\":2,\"program\":\"halo2d\",\"args\":[\"--size\",\"64\"],"
                + "\"backend\":\"host\",\"fabric\":\"shm\",\"threads\":false,\"clock\":\"thread-cpu-ns\"}", job.toJson());
    }

    @Test
    void writesJobJsonWholeAndLeavesNoPartialFile(@TempDir Path dir) throws Exception {
        job.write(dir);
        assertEquals(job.toJson() + "\n", Files.readString(dir.resolve("job.json")));
        assertFalse(Files.exists(dir.resolve("job.json.partial")));
    }
}
