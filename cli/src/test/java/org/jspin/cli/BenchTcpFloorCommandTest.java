package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code jspin bench tcpfloor} between two rank processes: the contiguous cases and the vector. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BenchTcpFloorCommandTest {
    @Test
    void theFloorMeasuresAContiguousCaseAndTheVector() {
        InProcess.Run r = run("bench", "tcpfloor", "--scale", "0.01", "--filter", "bw_64KiB$|vector", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("{\"case\":\"bw_64KiB\",\"backend\":\"none\",\"fabric\":\"tcp-socket\""), r.out());
        assertTrue(r.out().contains("{\"case\":\"bw_4MiB_vector_64B_stride_128B\",\"backend\":\"none\","
                + "\"fabric\":\"tcp-socket\",\"bytes\":4194304"), r.out());
    }

    @Test
    void aFilterThatSelectsNothingIsNamed() {
        InProcess.Run r = run("bench", "tcpfloor", "--filter", "latency_2B");
        assertNotEquals(0, r.status());
        assertTrue(r.err().contains("latency_2B"), r.err());
    }
}
