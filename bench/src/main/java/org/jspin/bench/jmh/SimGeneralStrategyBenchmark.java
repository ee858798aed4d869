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
 * The simulated NIC's receive handlers on irregular shapes (an irregular index list, a struct, two
 * application layouts), with the general strategies ({@code specialized} does not apply): the
 * companion of {@link SimStrategyBenchmark}.
 *
 * <p>{@code java -jar bench/target/benchmarks.jar SimGeneralStrategyBenchmark -p strategy=rw-cp,seek}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.XMS, BenchJvm.XMX, BenchJvm.PRE_TOUCH, BenchJvm.HUGE_PAGES,
        BenchJvm.VECTOR_MODULE, BenchJvm.NATIVE_ACCESS})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SimGeneralStrategyBenchmark extends SimReceiveBenchmark {
    /** The case (a name from {@code PackCases}). */
    @Param({"indexed_irregular", "struct_int_double3", "lammps_full_P4", "specfem3d_cm_c2"})
    public String caseName;

    /** The strategy. */
    @Param({"hpu-local", "ro-cp", "rw-cp", "iovec", "seek"})
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
