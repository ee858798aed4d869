package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ranks' JIT mode: C2 alone only when the job has more ranks than the machine has CPUs. */
class RankJobJitFlagsTest {
    @ParameterizedTest(name = "{0} ranks on {1} CPUs")
    @CsvSource({"4, 2, true", "3, 2, true", "2, 2, false", "1, 2, false", "2, 1, true", "8, 8, false", "1, 1, false"})
    void c2AloneOnlyWhenRanksOutnumberCpus(int ranks, int cpus, boolean c2Alone) {
        assertEquals(c2Alone ? List.of("-XX:-TieredCompilation") : List.of(), RankJob.jitFlags(ranks, cpus));
    }
}
