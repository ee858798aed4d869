package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class AnchorsPlanTest {
    @TempDir
    Path dir;

    private Path script() throws IOException {
        return Files.writeString(dir.resolve("run.sh"), "exit 0\n");
    }

    private static void rejected(String message, Executable e) {
        MpiException x = assertThrows(MpiException.class, e);
        assertEquals(ErrorClass.ERR_ARG, x.errorClass());
        assertTrue(x.getMessage().contains(message), x.getMessage());
    }

    @Test
    void aGoodPlanSaysWhatItCompares() throws IOException {
        AnchorsPlan ping = new AnchorsPlan("pingpong", 3, 1, "netty", script(), null);
        assertFalse(ping.packs());
        assertFalse(ping.sharedMemory());
        assertTrue(ping.cases().test("latency_1B"));
        AnchorsPlan pack = new AnchorsPlan("pack", 1, 0.5, "shm", script(), "vector_d");
        assertTrue(pack.packs());
        assertTrue(pack.sharedMemory());
        assertFalse(pack.cases().test("struct"));
    }

    @Test
    void eachBadValueIsNamed() throws IOException {
        Path s = script();
        rejected("--rounds must be at least 1, got 0", () -> new AnchorsPlan("pingpong", 0, 1, "netty", s, null));
        rejected("--scale must be a positive number, got -1.0", () -> new AnchorsPlan("pingpong", 1, -1, "netty", s,
                null));
        rejected("--scale must be a positive number, got Infinity",
                () -> new AnchorsPlan("pingpong", 1, Double.POSITIVE_INFINITY, "netty", s, null));
        rejected("--scale must be a positive number, got NaN", () -> new AnchorsPlan("pingpong", 1, Double.NaN,
                "netty", s, null));
        rejected("--fabric must be netty or shm, got 'tcp'", () -> new AnchorsPlan("pingpong", 1, 1, "tcp", s, null));
        rejected("what to compare must be pingpong or pack, got 'halo'", () -> new AnchorsPlan("halo", 1, 1, "netty",
                s, null));
        rejected("no anchors' script at " + dir.resolve("nope.sh"), () -> new AnchorsPlan("pack", 1, 1, "netty",
                dir.resolve("nope.sh"), null));
        rejected("--filter 'struct' matches none of the cases pack compares: [vector_",
                () -> new AnchorsPlan("pack", 1, 1, "netty", s, "struct"));
        rejected("--filter 'latency_2B' matches none of the cases pingpong compares: [latency_1B",
                () -> new AnchorsPlan("pingpong", 1, 1, "netty", s, "latency_2B"));
    }

    @Test
    void theRoundsAreCheckedFirst() {
        rejected("--rounds", () -> new AnchorsPlan("halo", 0, -1, "tcp", dir.resolve("nope.sh"), "none"));
    }
}
