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
import org.jspin.mpi.LocalRanks;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.report.IterationTime;
import org.junit.jupiter.api.Test;

/** A program's trace on thread ranks, replayed per iteration between its marks. */
class IterationTraceTest {
    @Test
    void tracesInATemporaryDirectoryThatIsRemovedAfterwards() {
        List<String> dirs = new ArrayList<>();
        IterationTrace t = IterationTrace.record((r, o, n, i) -> {
            dirs.add(o.trace());
            Halo2d.runLocal(r, o, new Halo2d.Params(n, i, false));
        }, 2, 16, 5);
        assertEquals(2, t.ranks());
        assertEquals(1, dirs.size());
        assertTrue(dirs.stream().noneMatch(d -> Files.exists(Path.of(d))), dirs.toString());
        IterationTime p = t.project(new PlainBytes("plain"), LogGopsParameters.defaults());
        assertEquals("plain", p.nic());
        assertEquals(5, p.iterations(), "halo2d marks before each iteration and after the last");
        assertTrue(p.medianNs() > 0);
        assertEquals(0, p.cpuPackNs());
        assertEquals(0, p.nicNs());
    }

    @Test
    void aLargerOverheadLengthensEachIterationOfAProgramThatSends() {
        // o of 10 ms per message: far above the run-to-run noise of a tiny halo's measured compute
        IterationTrace t = IterationTrace.record(
                (r, o, n, i) -> Halo2d.runLocal(r, o, new Halo2d.Params(n, i, false)), 2, 16, 3);
        PlainBytes plain = new PlainBytes("plain");
        double cheap = t.project(plain, LogGopsParameters.defaults().with("o=100")).medianNs();
        double dear = t.project(plain, LogGopsParameters.defaults().with("o=10000000")).medianNs();
        assertTrue(dear > cheap + 5_000_000, cheap + " against " + dear);
    }

    @Test
    void refusesNoIterationsAndAProgramThatMarksNone() {
        IterationTrace.Program never = (r, o, n, i) -> {
            throw new AssertionError("not run");
        };
        MpiException e = assertThrows(MpiException.class, () -> IterationTrace.record(never, 2, 16, 0));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("iterations 0"), e.getMessage());
        IterationTrace unmarked = IterationTrace.record((r, o, n, i) -> LocalRanks.run(r, o, 60,
                mpi -> mpi.world().barrier()), 2, 16, 1);
        MpiException none = assertThrows(MpiException.class,
                () -> unmarked.project(new PlainBytes("plain"), LogGopsParameters.defaults()));
        assertTrue(none.getMessage().contains("rank 0 0, rank 1 0"), none.getMessage());
    }
}
