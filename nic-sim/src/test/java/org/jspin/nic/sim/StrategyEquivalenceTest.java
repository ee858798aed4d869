package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.testing.RandomTypes;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.strategy.Strategies;
import org.jspin.nic.sim.work.WorkListener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every strategy, in order and out of order (several windows and seeds, chunks that cut packets),
 * leaves the receive buffer byte for byte as the host path does, bytes outside the type map
 * included: over every golden case, every application layout, and seeded random datatypes.
 */
class StrategyEquivalenceTest {
    /** Enough NIC memory that every strategy runs (the fallbacks have their own test). */
    private static final SimConfig BIG = SimConfig.DEFAULT.withNicMemory(1L << 30);
    private static final List<String> STRATEGIES = List.of("specialized", "hpu-local", "ro-cp", "rw-cp", "iovec", "seek");

    /** An order of delivery: window, seed, and the fabric's chunk. */
    private record Order(int window, long seed, int chunk) {
        @Override
        public String toString() {
            return window == 1 ? "in order, chunk " + chunk : "window " + window + " seed " + seed + ", chunk " + chunk;
        }
    }

    private static final List<Order> ORDERS = List.of(new Order(1, 0, OneMessage.DEFAULT_CHUNK),
            new Order(4, 1, 5000), new Order(32, 7, OneMessage.DEFAULT_CHUNK));

    static Stream<SharedTypes.Case> shared() {
        return SharedTypes.all();
    }

    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shared")
    void sharedCaseIsExactWithEveryStrategy(SharedTypes.Case c) {
        checkAll(c.type(), c.count(), c.toString());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomTypeIsExactWithEveryStrategy(long seed) {
        TypeCase c = RandomTypes.generate(seed);
        checkAll(c.type().commit(), c.count(), c.toString());
    }

    private static void checkAll(Datatype type, long count, String what) {
        MessageShape shape = MessageShape.of(type, count);
        for (String s : STRATEGIES) {
            String why = Strategies.notApplicable(s, shape);
            for (Order o : ORDERS) {
                SimConfig config = BIG.withStrategy(s).withOutOfOrder(o.window, o.seed);
                String label = s + ", " + o + ": " + what;
                if (why != null) {
                    MpiException e = assertThrows(MpiException.class,
                            () -> OneMessage.run(type, count, config, o.chunk, WorkListener.NONE, true), label);
                    assertTrue(e.getMessage().contains("not applicable"), label + ": " + e.getMessage());
                    continue;
                }
                OneMessage.Result r = OneMessage.run(type, count, config, o.chunk, WorkListener.NONE, true);
                if (!r.identical()) {
                    fail(label + ": receive buffer differs from the host path's at byte " + r.mismatch());
                }
                long bytes = type.packSize(count);
                assertNull(r.receive().fallback, label);
                assertEquals(s, r.receive().strategy, label);
                assertEquals(bytes, r.receive().dmaWriteBytes, label + ": every byte written once by DMA");
                assertEquals(bytes, r.send().dmaReadBytes, label + ": every byte read once by DMA");
                assertEquals(0, r.receive().cpuBytes, label);
                assertEquals(r.receive().packets, r.receive().payloadHandlers, label);
                assertEquals(bytes == 0 ? 0 : 1, r.receive().headerHandlers, label);
            }
        }
    }
}
