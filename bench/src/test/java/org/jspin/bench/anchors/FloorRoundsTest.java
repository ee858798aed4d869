package org.jspin.bench.anchors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.jspin.bench.pingpong.PingPongResult;
import org.junit.jupiter.api.Test;

class FloorRoundsTest {
    private static final AnchorCase LAT = AnchorCase.PINGPONG.get(0); // latency_1B
    private static final AnchorCase BW4 = AnchorCase.PINGPONG.stream()
            .filter(c -> c.jspin().equals(AnchorCase.CONTIGUOUS_4MIB)).findFirst().orElseThrow();

    private static PingPongResult latency(double p50) {
        return new PingPongResult("latency_1B", 1, 100, p50, p50, p50, 1 / p50 / 1e3);
    }

    private static PingPongResult rate(String name, double gbps) {
        return new PingPongResult(name, 4 << 20, 100, (4 << 20) / gbps / 1e3, 0, 0, gbps);
    }

    @Test
    void theFloorsVectorIsSetAgainstItsOwnContiguousCaseAndJspinAgainstTheFloorRoundByRound() {
        FloorRounds f = new FloorRounds();
        f.add(List.of(latency(5), rate("bw_4MiB", 10), rate(AnchorCase.VECTOR_4MIB, 6)),
                List.of(latency(6.25), rate("bw_4MiB", 8), rate(AnchorCase.VECTOR_4MIB, 5.4)));
        f.add(List.of(latency(4), rate("bw_4MiB", 16)), // no vector in the floor's second round
                List.of(latency(5), rate("bw_4MiB", 12), rate(AnchorCase.VECTOR_4MIB, 9)));
        assertEquals(2, f.rounds());
        assertEquals(List.of(0.6), f.vectorOverContiguous());
        assertEquals(List.of(0.8, 0.8), f.jspinOverFloor(LAT), "the floor's time over jspin's");
        assertEquals(List.of(0.8, 0.75), f.jspinOverFloor(BW4), "jspin's GB/s over the floor's");
        AnchorCase vector = AnchorCase.PINGPONG.stream().filter(c -> c.jspin().equals(AnchorCase.VECTOR_4MIB))
                .findFirst().orElseThrow();
        assertEquals(List.of(0.9), f.jspinOverFloor(vector).stream().map(x -> Math.round(x * 1000) / 1000.0)
                .toList(), "only rounds with both figures");
    }
}
