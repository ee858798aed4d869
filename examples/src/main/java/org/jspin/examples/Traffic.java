package org.jspin.examples;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.op.Ops;

/**
 * What the ranks' NICs did, from their meters, as the examples report it and {@code jspin compare} sets
 * side by side: bytes and messages sent, CPU bytes packed and unpacked, estimated main-memory traffic,
 * and, on the sim backend, the simulated NIC time of the received messages with the modelled host time
 * of the same receives. Counted from meters that both backends have where they mean the same thing; a
 * backend without a meter reads 0.
 *
 * @param bytesMoved     message bytes sent
 * @param messages       messages sent
 * @param cpuPacked      bytes the CPU packed
 * @param cpuUnpacked    bytes the CPU unpacked
 * @param memoryTraffic  estimated main-memory traffic: NIC reads and writes plus CPU reads and writes
 * @param nicNs          simulated NIC time of the offloaded receives (sim only; simulated)
 * @param hostModelNs    modelled host time of the same receives (sim only; a model)
 * @param offloaded      receives whose bytes the simulated NIC's handlers scattered
 * @param cpuFallbacks   receives the CPU unpacked instead (unexpected ones from the overflow buffer, and fallbacks)
 */
public record Traffic(double bytesMoved, double messages, double cpuPacked, double cpuUnpacked, double memoryTraffic,
                      double nicNs, double hostModelNs, double offloaded, double cpuFallbacks) {
    private static final int FIELDS = 9;

    /** @return this rank's meters so far */
    public static Traffic of(Mpi mpi) {
        return new Traffic(mpi.meter("jspin.bytes.sent"), mpi.meter("jspin.messages.sent"),
                mpi.meter("jspin.cpu.bytes.packed"), mpi.meter("jspin.cpu.bytes.unpacked"),
                mpi.meter("jspin.memory.nic.read") + mpi.meter("jspin.memory.nic.written")
                        + mpi.meter("jspin.memory.cpu.read") + mpi.meter("jspin.memory.cpu.written"),
                mpi.meter("jspin.sim.nic.time"), mpi.meter("jspin.sim.host.model.time"),
                mpi.meter("jspin.sim.messages.offloaded"),
                mpi.meter("jspin.sim.messages.overflow") + mpi.meter("jspin.sim.messages.fallback"));
    }

    /** @return what happened between {@code before} and this */
    public Traffic minus(Traffic before) {
        double[] a = array();
        double[] b = before.array();
        for (int i = 0; i < FIELDS; i++) {
            a[i] -= b[i];
        }
        return from(a);
    }

    /** @return the sum over every rank of {@code comm} (collective) */
    public Traffic sum(Comm comm) {
        double[] out = new double[FIELDS];
        comm.allreduce(MemorySegment.ofArray(array()), MemorySegment.ofArray(out), FIELDS, Datatype.DOUBLE, Ops.SUM);
        return from(out);
    }

    private double[] array() {
        return new double[] {bytesMoved, messages, cpuPacked, cpuUnpacked, memoryTraffic, nicNs, hostModelNs, offloaded,
            cpuFallbacks};
    }

    private static Traffic from(double[] a) {
        return new Traffic(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
    }

    /** @return the figures by name (the JSON the examples print with {@code --json}) */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bytes_moved", bytesMoved);
        m.put("messages", messages);
        m.put("cpu_bytes_packed", cpuPacked);
        m.put("cpu_bytes_unpacked", cpuUnpacked);
        m.put("memory_traffic_bytes", memoryTraffic);
        m.put("nic_ns_simulated", nicNs);
        m.put("host_model_ns", hostModelNs);
        m.put("receives_offloaded", offloaded);
        m.put("receives_cpu", cpuFallbacks);
        return m;
    }
}
