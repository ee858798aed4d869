package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.examples.halo2d.Halo2d;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.junit.jupiter.api.Test;

/** Two traces of one program, replayed per iteration. */
class IterationTracesTest {
    @Test
    void warmsUpUntracedThenTracesInATemporaryDirectoryThatIsRemovedAfterwards() {
        List<String> dirs = new ArrayList<>();
        IterationTraces t = IterationTraces.record((r, o, n, i) -> {
            dirs.add(o.trace());
            Halo2d.runLocal(r, o, new Halo2d.Params(n, i, false));
        }, 2, 16, 1, 3);
        assertEquals(2, t.ranks());
        assertEquals(3, dirs.size());
        assertEquals("", dirs.getFirst(), "the warm-up is not traced");
        dirs.removeFirst();
        assertTrue(dirs.stream().noneMatch(d -> Files.exists(Path.of(d))), dirs.toString());
        IterationTraces.PerIteration p = t.project(new PlainBytes("plain"), LogGopsParameters.defaults());
        assertEquals("plain", p.nic());
        assertEquals(0, p.cpuPackNs());
        assertEquals(0, p.nicNs());
    }

    @Test
    void aLargerOverheadLengthensEachIterationOfAProgramThatSends() {
        // o of 10 ms per message: far above the run-to-run noise of a tiny halo's measured compute
        IterationTraces t = IterationTraces.record(
                (r, o, n, i) -> Halo2d.runLocal(r, o, new Halo2d.Params(n, i, false)), 2, 16, 1, 2);
        PlainBytes plain = new PlainBytes("plain");
        double cheap = t.project(plain, LogGopsParameters.defaults().with("o=100")).runtimeNs();
        double dear = t.project(plain, LogGopsParameters.defaults().with("o=10000000")).runtimeNs();
        assertTrue(dear > cheap + 5_000_000, cheap + " against " + dear);
    }

    @Test
    void refusesIterationCountsThatDoNotGrow() {
        IterationTraces.Program never = (r, o, n, i) -> {
            throw new AssertionError("not run");
        };
        MpiException e = assertThrows(MpiException.class, () -> IterationTraces.record(never, 2, 16, 2, 2));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("2 and 2"), e.getMessage());
        assertThrows(MpiException.class, () -> IterationTraces.record(never, 2, 16, 0, 1));
    }
}
