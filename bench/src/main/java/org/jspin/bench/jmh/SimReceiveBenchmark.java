package org.jspin.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the simulated NIC's receive benchmarks share: one {@link SimReceive} of the subclass's case
 * and strategy (its JMH parameters) per fork, and one whole receive per operation. The subclasses
 * differ only in the cases and strategies they sweep by default, since a strategy that does not apply
 * to a case cannot be left out of one JMH parameter product.
 */
public abstract class SimReceiveBenchmark {
    private SimReceive receive;

    /** @return the case to measure (a name from {@code PackCases}) */
    protected abstract String caseName();

    /** @return the strategy */
    protected abstract String strategy();

    /** Builds the case, its buffers and the NIC once per fork. */
    @Setup(Level.Trial)
    public void setUp() {
        receive = new SimReceive(caseName(), strategy());
    }

    /** Frees the buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        receive.close();
    }

    /** One whole receive through the handlers. */
    @Benchmark
    public long receive(PayloadBytes counter) {
        counter.bytes += receive.payload();
        return receive.receive();
    }
}
