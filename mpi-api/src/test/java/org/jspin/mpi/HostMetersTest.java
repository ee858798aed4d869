package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.datatype.Datatype;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The host backend's meters count what its data path really did. */
class HostMetersTest {
    private static double value(MeterRegistry reg, String name, int rank) {
        double v = 0;
        for (Meter m : reg.getMeters()) {
            if (m.getId().getName().equals(name) && Integer.toString(rank).equals(m.getId().getTag("rank"))) {
                v += m.measure().iterator().next().getValue();
            }
        }
        return v;
    }

    @ParameterizedTest(name = "streaming unpack {0}")
    @ValueSource(booleans = {true, false})
    void packedUnpackedAndTrafficMatchTheMessages(boolean streaming) {
        MeterRegistry reg = new SimpleMeterRegistry();
        Datatype column = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit(); // 400,000 B, rendezvous
        MpiOptions o = MpiOptions.defaults().withMeters(reg)
                .withNic(NicConfig.DEFAULT.withChunkSize(64 << 10).withStreamingUnpack(streaming));
        double[] ownPacked = new double[2];
        LocalRanks.run(2, o, 60, mpi -> {
            Comm w = mpi.world();
            double[] a = new double[100_000];
            // the receives are posted before the sends start: an in-JVM RTS arriving before its
            // receive has its bytes dropped and sent again, which the NIC's meters would count twice
            if (w.rank() == 0) {
                w.barrier();
                w.send(MemorySegment.ofArray(a), 1, column, 1, 0);            // packed by the CPU
                w.send(MemorySegment.ofArray(a), 50_000, Datatype.DOUBLE, 1, 1); // zero-copy
            } else {
                double[] b = new double[100_000];
                Request contiguous = w.irecv(MemorySegment.ofArray(a), 50_000, Datatype.DOUBLE, 0, 0);
                Request unpacked = w.irecv(MemorySegment.ofArray(b), 1, column, 0, 1); // unpacked by the CPU
                w.barrier();
                contiguous.waitFor();
                unpacked.waitFor();
            }
            w.barrier();
            ownPacked[w.rank()] = mpi.meter("jspin.cpu.bytes.packed"); // both ranks' meters share the registry
        });
        assertEquals(400_000, ownPacked[0], "Mpi.meter reads the rank's own meter");
        assertEquals(0, ownPacked[1]);
        assertTrue(value(reg, "jspin.cpu.pack.time", 0) > 0, "packing took time");
        assertEquals(0, value(reg, "jspin.cpu.pack.time", 1), "rank 1 packed nothing");
        assertTrue(value(reg, "jspin.cpu.unpack.time", 1) > 0, "unpacking took time");
        assertEquals(0, value(reg, "jspin.cpu.unpack.time", 0), "rank 0 unpacked nothing");
        assertEquals(400_000, value(reg, "jspin.cpu.bytes.packed", 0), "sender packed the column only");
        assertEquals(0, value(reg, "jspin.cpu.bytes.unpacked", 0));
        assertEquals(400_000, value(reg, "jspin.cpu.bytes.unpacked", 1), "receiver unpacked the column only");
        assertEquals(0, value(reg, "jspin.cpu.bytes.packed", 1));
        assertEquals(800_000, value(reg, "jspin.memory.nic.read", 0), "the NIC reads every sent byte");
        assertEquals(800_000, value(reg, "jspin.memory.nic.written", 1), "and writes every received one");
        assertEquals(800_000, value(reg, "jspin.memory.cpu.read", 0) + value(reg, "jspin.memory.cpu.written", 0));
        assertEquals(0, value(reg, "jspin.staging.buffers.in.use", 0), "staging all returned");
        assertEquals(0, value(reg, "jspin.staging.buffers.in.use", 1));
        assertEquals(0, value(reg, "jspin.packets.in.flight", 0), "every packet came back");
        assertEquals(800_000, value(reg, "jspin.bytes.received", 1), "data bytes; barrier messages are empty");
    }
}
