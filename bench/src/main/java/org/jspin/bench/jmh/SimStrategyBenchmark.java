package org.jspin.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.jspin.bench.pack.BenchJvm;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The simulated NIC's receive handlers, every strategy, on shapes every strategy applies to (vectors
 * and the faces of a cube): how fast our handlers run in Java on this machine (wall time), next to
 * {@code PackBenchmark}'s CPU unpack of the same case. {@link SimGeneralStrategyBenchmark} has the
 * irregular shapes, where {@code specialized} does not apply.
 *
 * <p>{@code java -jar bench/target/benchmarks.jar SimStrategyBenchmark -p strategy=rw-cp,seek}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.XMS, BenchJvm.XMX, BenchJvm.PRE_TOUCH, BenchJvm.HUGE_PAGES,
        BenchJvm.VECTOR_MODULE, BenchJvm.NATIVE_ACCESS})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SimStrategyBenchmark extends SimReceiveBenchmark {
    /** The case (a name from {@code PackCases}). */
    @Param({"vector_d_8B", "vector_d_64B", "vector_d_256B", "cube_face_yz"})
    public String caseName;

    /** The strategy. */
    @Param({"specialized", "hpu-local", "ro-cp", "rw-cp", "iovec", "seek"})
    public String strategy;

    @Override
    protected String caseName() {
        return caseName;
    }

    @Override
    protected String strategy() {
        return strategy;
    }
}
