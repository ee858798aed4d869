package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.api.Test;

/** A smoke run of every ping-pong case: it completes and reports sane figures (no timing assertions). */
class PingPongTest {
    @Test
    void everyCaseRunsAndReports() {
        List<PingPongCase> cases = PingPongCase.standard(0.001);
        List<PingPongResult> r = PingPong.runLocal(MpiOptions.defaults(), cases);
        assertEquals(cases.size(), r.size());
        for (int i = 0; i < r.size(); i++) {
            assertEquals(cases.get(i).name(), r.get(i).name());
            assertEquals(cases.get(i).bytes(), r.get(i).bytes());
            assertTrue(r.get(i).p50Micros() > 0 && r.get(i).p50Micros() <= r.get(i).p99Micros(), r.get(i).toString());
        }
        assertEquals(4L << 20, cases.getLast().bytes(), "the vector case carries 4 MiB of payload");
        assertEquals(8L << 20, cases.getLast().bufferBytes() + 64, "at a 128 B stride it spans 8 MiB (less the last gap)");
    }
}
