package org.jspin.bench.anchors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspin.bench.pingpong.PingPongResult;

/**
 * The floor under jspin's ping-pong ({@code jspin bench tcpfloor}: the same cases over a bare
 * socket) measured in each round of {@code jspin bench anchors} beside jspin's bound run: the
 * floor's own 4 MiB vector over its contiguous 4 MiB (how far below a message at the socket's speed
 * a runtime that packs keeps the vector in that round), and jspin over the floor per case (above 1:
 * jspin faster, which the floor's one busy-polled socket makes rare).
 */
public final class FloorRounds {
    /** Per round: the floor's figures and jspin's (bound), by case name. */
    private final List<Map<String, PingPongResult>> floor = new ArrayList<>();
    private final List<Map<String, PingPongResult>> jspin = new ArrayList<>();

    /** Adds one round: the floor's results and jspin's bound results of the same round. */
    public void add(List<PingPongResult> floorRound, List<PingPongResult> jspinRound) {
        floor.add(byName(floorRound));
        jspin.add(byName(jspinRound));
    }

    /** @return rounds added */
    public int rounds() {
        return floor.size();
    }

    /** @return per round, the floor's 4 MiB vector over its contiguous 4 MiB (rounds with both) */
    public List<Double> vectorOverContiguous() {
        List<Double> out = new ArrayList<>();
        for (Map<String, PingPongResult> round : floor) {
            PingPongResult v = round.get(AnchorCase.VECTOR_4MIB);
            PingPongResult c = round.get(AnchorCase.CONTIGUOUS_4MIB);
            if (v != null && c != null) {
                out.add(v.gbps() / c.gbps());
            }
        }
        return out;
    }

    /**
     * @return per round with both figures, jspin's figure of merit over the floor's: the floor's time
     *         over jspin's for a latency case, jspin's GB/s over the floor's otherwise
     */
    public List<Double> jspinOverFloor(AnchorCase c) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < floor.size(); i++) {
            PingPongResult f = floor.get(i).get(c.jspin());
            PingPongResult j = jspin.get(i).get(c.jspin());
            if (f != null && j != null) {
                double ours = Versus.figure(c, j);
                double theirs = Versus.figure(c, f);
                out.add(c.latency() ? theirs / ours : ours / theirs);
            }
        }
        return out;
    }

    private static Map<String, PingPongResult> byName(List<PingPongResult> results) {
        Map<String, PingPongResult> m = new HashMap<>();
        for (PingPongResult r : results) {
            m.put(r.name(), r);
        }
        return m;
    }
}
