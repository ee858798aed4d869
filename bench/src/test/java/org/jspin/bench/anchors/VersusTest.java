package org.jspin.bench.anchors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Medians of figures and of per-round ratios, over rounds whose figures the test chooses. */
class VersusTest {
    private static final AnchorCase LAT = AnchorCase.PINGPONG.get(0); // latency_1B / lat_1B
    private static final AnchorCase BW4 = AnchorCase.PINGPONG.stream()
            .filter(c -> c.jspin().equals(AnchorCase.CONTIGUOUS_4MIB)).findFirst().orElseThrow();

    private static PingPongResult latency(String name, double p50, double p99) {
        return new PingPongResult(name, 1, 100, p50, p50, p99, 1 / p50 / 1e3);
    }

    private static PingPongResult rate(String name, double gbps) {
        return new PingPongResult(name, 4 << 20, 100, (4 << 20) / gbps / 1e3, 0, 0, gbps);
    }

    private static AnchorResults anchors(double ompiLatency, double ompiBw, double mpichLatency) {
        return AnchorResults.parse(List.of(
                "RESULT ompi-tcp lat_1B " + ompiLatency + " us",
                "RESULT ompi-tcp ppbw_4096KiB " + ompiBw + " GB/s",
                "RESULT mpich-tcp lat_1B " + mpichLatency + " us"));
    }

    @Test
    void ratiosAreTakenWithinARoundThenTheirMedian() {
        Versus v = new Versus(List.of("bound"));
        // the medians of the figures (6 us each) would call the latency even; within the rounds jspin
        // was behind once and ahead twice
        v.add(anchors(6, 2, 8), Map.of("bound", List.of(latency("latency_1B", 12, 20), rate("bw_4MiB", 1.8))));
        v.add(anchors(5, 6, 4), Map.of("bound", List.of(latency("latency_1B", 4, 30), rate("bw_4MiB", 6.6))));
        v.add(anchors(10, 4, 5), Map.of("bound", List.of(latency("latency_1B", 6, 12), rate("bw_4MiB", 4.0))));
        assertEquals(List.of(0.5, 1.25, 10 / 6.0), v.ratios(LAT, AnchorCase.OPEN_MPI, "bound"));
        assertEquals(List.of(0.9, 1.1, 1.0), v.ratios(BW4, AnchorCase.OPEN_MPI, "bound").stream()
                .map(x -> Math.round(x * 1000) / 1000.0).toList());
        Versus.Row lat = v.rows().get(0);
        assertEquals(LAT, lat.c());
        assertEquals(6.0, lat.jspin().get("bound"));
        assertEquals(6.0, lat.theirs().get(AnchorCase.OPEN_MPI));
        assertEquals(5.0, lat.theirs().get(AnchorCase.MPICH));
        assertEquals(1.25, lat.ratio().get(AnchorCase.OPEN_MPI).get("bound"), 1e-12);
        assertEquals(5 / 6.0, lat.ratio().get(AnchorCase.MPICH).get("bound"), 1e-12); // 8/12, 4/4, 5/6
        Versus.Row bw = v.rows().stream().filter(r -> r.c().equals(BW4)).findFirst().orElseThrow();
        assertEquals(1.0, bw.ratio().get(AnchorCase.OPEN_MPI).get("bound"), 1e-12);
        assertTrue(Double.isNaN(bw.theirs().get(AnchorCase.MPICH)), "MPICH printed no 4 MiB figure");
        assertTrue(Double.isNaN(bw.ratio().get(AnchorCase.MPICH).get("bound")));
    }

    @Test
    void theVectorIsSetAgainstTheContiguousCaseOfTheSameLaunchAndTailsAreCounted() {
        Versus v = new Versus(List.of("bound", "unbound"));
        v.add(anchors(10, 2, 8), Map.of(
                "bound", List.of(rate("bw_4MiB", 4), rate(AnchorCase.VECTOR_4MIB, 3), latency("latency_1B", 6, 31)),
                "unbound", List.of(rate("bw_4MiB", 5), rate(AnchorCase.VECTOR_4MIB, 2), latency("latency_1B", 6, 12))));
        v.add(anchors(10, 2, 8), Map.of(
                "bound", List.of(rate("bw_4MiB", 2), rate(AnchorCase.VECTOR_4MIB, 1), latency("latency_1B", 5, 10)),
                "unbound", List.of(rate("bw_4MiB", 8), rate(AnchorCase.VECTOR_4MIB, 6))));
        assertEquals(List.of(0.75, 0.5), v.vectorOverContiguous("bound"));
        assertEquals(List.of(0.4, 0.75), v.vectorOverContiguous("unbound"));
        assertEquals(new Versus.Tails(1, 2, 31 / 6.0), v.tails("bound"));
        assertEquals(new Versus.Tails(0, 1, 2.0), v.tails("unbound"));
        assertEquals(2, v.rounds());
    }

    /** Seeded: whatever the machine's state in each round, a constant per-round ratio is what comes out. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 2012})
    void aConstantRatioSurvivesAnyDriftBetweenRounds(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double k = 0.5 + rnd.nextDouble() * 1.5;
        int rounds = 1 + rnd.nextInt(9);
        Versus v = new Versus(List.of("unbound"));
        for (int r = 0; r < rounds; r++) {
            double state = 0.3 + rnd.nextDouble() * 3; // the machine's speed this round
            double theirLatency = 6 / state;
            double theirRate = 4 * state;
            v.add(anchors(theirLatency, theirRate, theirLatency),
                    Map.of("unbound", List.of(latency("latency_1B", theirLatency / k, 1), rate("bw_4MiB", theirRate * k))));
        }
        for (Versus.Row row : v.rows()) {
            assertEquals(k, row.ratio().get(AnchorCase.OPEN_MPI).get("unbound"), 1e-9, "seed " + seed + ", " + row.c());
        }
    }

    @Test
    void aRoundMustCoverEveryBindingAndNoOther() {
        Versus v = new Versus(List.of("bound", "unbound"));
        MpiException missing = assertThrows(MpiException.class,
                () -> v.add(anchors(1, 1, 1), Map.of("bound", List.of())));
        assertEquals(ErrorClass.ERR_ARG, missing.errorClass());
        assertTrue(missing.getMessage().contains("'unbound'"), missing.getMessage());
        MpiException unknown = assertThrows(MpiException.class,
                () -> v.add(anchors(1, 1, 1), Map.of("bound", List.of(), "unbound", List.of(), "socket", List.of())));
        assertTrue(unknown.getMessage().contains("'socket'"), unknown.getMessage());
        assertEquals(0, v.rounds(), "a refused round adds nothing");
        assertThrows(MpiException.class, () -> new Versus(List.of()));
    }
}
