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
            // every case's round trips were probed and each went to one state or the other
            CoreSplit c = r.get(i).cores();
            assertTrue(c.probed() && c.nearShare() >= 0 && c.nearShare() <= 1, c.toString());
            assertTrue(c.nearShare() == 0 || c.p50NearMicros() > 0, c.toString());
            assertTrue(c.nearShare() == 1 || c.p50FarMicros() > 0, c.toString());
        }
        PingPongCase vector = cases.stream().filter(c -> c.name().contains("vector")).findFirst().orElseThrow();
        assertEquals(4L << 20, vector.bytes(), "the vector case carries 4 MiB of payload");
        assertEquals(8L << 20, vector.bufferBytes() + 64, "at a 128 B stride it spans 8 MiB (less the last gap)");
        for (int i = 0; i < r.size(); i++) {
            PingPongCase c = cases.get(i);
            if (c.streaming()) {
                // a window's figure: its bytes over its time
                double want = c.bytes() * (double) c.window() / (r.get(i).p50Micros() * 1e3);
                assertEquals(want, r.get(i).gbps(), want * 1e-9, c.name());
            }
        }
        assertEquals(3, cases.stream().filter(PingPongCase::streaming).count(), "64 KiB, 1 MiB and 4 MiB windows");
        for (int i = 0; i < r.size(); i++) {
            PingPongResult x = r.get(i);
            // two threads of this JVM bouncing the message by copies alone: measured after every
            // contiguous ping-pong, and only there (a vector packs, a window has no single copy)
            boolean contiguousPingPong = !cases.get(i).streaming() && cases.get(i) != vector;
            assertEquals(contiguousPingPong, x.floorMicros() > 0, x.toString());
            if (cases.get(i) == vector) {
                // rank 0 packs what it sends and unpacks what comes back, and its meters timed both
                assertTrue(x.packGbps() > 0 && x.unpackGbps() > 0, x.toString());
            } else {
                assertEquals(0, x.packGbps(), x.name() + " is contiguous: nothing packed");
                assertEquals(0, x.unpackGbps(), x.name());
            }
        }
    }
}
