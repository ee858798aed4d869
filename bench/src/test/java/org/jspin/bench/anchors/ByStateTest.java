package org.jspin.bench.anchors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.bench.pingpong.CoreSplit;
import org.jspin.bench.pingpong.PingPongResult;
import org.junit.jupiter.api.Test;

class ByStateTest {
    private static AnchorResults anchors(double lat, double bw) {
        return AnchorResults.parse(List.of("RESULT ompi-tcp lat_1B " + lat + " us",
                "RESULT ompi-tcp ppbw_1024KiB " + bw + " GB/s"));
    }

    private static PingPongResult latency(CoreSplit s) {
        return new PingPongResult("latency_1B", 1, 100, 6.5, 7, 8, 0.0002, 0, 0, s);
    }

    private static PingPongResult oneMiB(CoreSplit s) {
        return new PingPongResult("bw_1MiB", 1 << 20, 100, 150, 200, 300, 7.0, 0, 0, s);
    }

    private static ByState.Row row(ByState v, String jspin) {
        return v.rows().stream().filter(r -> r.c().jspin().equals(jspin)).findFirst().orElseThrow();
    }

    @Test
    void eachFigureIsComparedOnlyWithFiguresOfItsOwnState() {
        ByState v = new ByState();
        // round 1: the anchors ran near; jspin's latency near, its 1 MiB half near and half far
        v.add(anchors(7.0, 6.5), 100, 110, List.of(latency(new CoreSplit(1, 6.0, 0, 90, 0)),
                oneMiB(new CoreSplit(0.5, 140, 300, 95, 430))));
        // round 2: all far
        v.add(anchors(8.5, 3.4), 440, 450, List.of(latency(new CoreSplit(1, 7.8, 0, 445, 0)),
                oneMiB(new CoreSplit(1, 290, 0, 440, 0))));
        // round 3: the state changed while the anchors ran: their figures are left out; jspin's
        // far group covers a tenth of its round trips, too few to count
        v.add(anchors(99, 0.1), 100, 450, List.of(latency(new CoreSplit(0.9, 6.2, 50, 92, 440))));
        assertEquals(300, v.cut(), "the default bound");

        ByState.Row lat = row(v, "latency_1B");
        assertEquals(List.of(6.0, 6.2), lat.oursNear());
        assertEquals(List.of(7.0), lat.theirsNear());
        assertEquals(List.of(7.8), lat.oursFar());
        assertEquals(List.of(8.5), lat.theirsFar());
        assertEquals(7.0 / 6.1, lat.ratioNear(), 1e-12, "their time over our median time");
        assertEquals(8.5 / 7.8, lat.ratioFar(), 1e-12);

        ByState.Row bw = row(v, "bw_1MiB");
        // the case's rate at each group's median time: 7.0 GB/s at 150 us
        assertEquals(List.of(7.0 * 150 / 140), bw.oursNear());
        assertEquals(List.of(7.0 * 150 / 300, 7.0 * 150 / 290), bw.oursFar());
        assertEquals(List.of(6.5), bw.theirsNear());
        assertEquals(List.of(3.4), bw.theirsFar());
        assertEquals(7.5 / 6.5, bw.ratioNear(), 1e-12);
    }

    @Test
    void aStateNobodyMeasuredHasNoRatio() {
        ByState v = new ByState();
        v.add(anchors(7.0, 6.5), 100, 100, List.of(latency(new CoreSplit(1, 6.0, 0, 100, 0))));
        ByState.Row lat = row(v, "latency_1B");
        assertTrue(Double.isNaN(lat.ratioFar()));
        assertEquals(7.0 / 6.0, lat.ratioNear(), 1e-12);
        ByState.Row vector = row(v, AnchorCase.VECTOR_4MIB);
        assertTrue(vector.oursNear().isEmpty() && vector.theirsNear().isEmpty() && Double.isNaN(vector.ratioNear()));
    }

    @Test
    void anchorsWithoutProbesCountInNoState() {
        ByState v = new ByState();
        v.add(anchors(7.0, 6.5), Double.NaN, Double.NaN, List.of(latency(new CoreSplit(1, 6.0, 0, 100, 0))));
        ByState.Row lat = row(v, "latency_1B");
        assertTrue(lat.theirsNear().isEmpty() && lat.theirsFar().isEmpty());
        assertEquals(300, v.cut());
    }
}
