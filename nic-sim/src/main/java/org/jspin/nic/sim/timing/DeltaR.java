package org.jspin.nic.sim.timing;

import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.StructNode;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.strategy.MessageShape;

/**
 * Chooses Δr, the bytes between two checkpoints, by the paper's model of a message's processing time
 * under {@code rw-cp}: TC = Tpkt + (Δr/k)(P-1)Tpkt + ceil(npkt/P)·TPH(γ), where Tpkt is the packet
 * inter-arrival time, k the packet payload, P the HPUs, npkt the packets and TPH(γ) the payload
 * handler's time for γ blocks per packet ({@link CostModel}, with one NIC memory access per block).
 * The middle term is the scheduling overhead of the blocked round robin; Δr is the largest multiple of
 * k that keeps it within ε of the ideal time (the other two terms), at least one packet, at most the
 * message; then doubled until the checkpoints fit the free NIC memory.
 */
public final class DeltaR {
    private DeltaR() {
    }

    /** @return Δr for {@code shape}: the configured one if set, else the model's */
    public static long choose(MessageShape shape, SimConfig sim, TimingConfig t, long freeNicBytes,
                              java.util.function.LongUnaryOperator nicBytesAt) {
        if (sim.deltaR() > 0) {
            return sim.deltaR();
        }
        long k = sim.packetBytes();
        long bytes = Math.max(1, shape.bytes());
        long npkt = (bytes + k - 1) / k;
        int p = sim.hpus();
        double tpkt = k * 8 * 1000.0 / t.get(TimingParam.LINE_RATE);
        double gamma = (double) blocks(shape.message()) / npkt;
        CostModel cost = new CostModel(t);
        double tph = (cost.cyclesFor(gamma) + gamma * t.get(TimingParam.MEMORY_LATENCY)) * cost.psPerCycle();
        double ideal = tpkt + Math.ceil((double) npkt / p) * tph;
        long packets = p == 1 ? npkt : (long) Math.floor(t.get(TimingParam.EPSILON) * ideal / ((p - 1) * tpkt));
        long dr = Math.max(1, Math.min(packets, npkt)) * k;
        while (nicBytesAt.applyAsLong(dr) > freeNicBytes && dr < npkt * k) {
            dr = Math.min(2 * dr, npkt * k);
        }
        return dr;
    }

    /** @return leaf blocks in {@code n} (runs count one each) */
    static long blocks(Node n) {
        if (n == null) {
            return 0;
        }
        return switch (n.kind) {
            case Node.VECTOR -> {
                VectorNode v = (VectorNode) n;
                yield v.child.kind == Node.BLOCK ? v.count : v.count * blocks(v.child);
            }
            case Node.RUNS -> ((RunsNode) n).lens.length;
            case Node.STRUCT -> {
                long b = 0;
                for (Node c : ((StructNode) n).children) {
                    b += blocks(c);
                }
                yield b;
            }
            default -> 1;
        };
    }
}
