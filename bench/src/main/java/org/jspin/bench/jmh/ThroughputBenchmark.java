package org.jspin.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.jspin.bench.pack.BenchJvm;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings that the copy benchmarks ({@link PackBenchmark}, {@link ColdPackBenchmark},
 * {@link KernelBenchmark}) share, inherited by each (JMH reads a benchmark class's annotations
 * from its superclasses): throughput per second, one fork per parameter set with a fixed,
 * pre-touched heap and the SIMD kernels ({@link BenchJvm} says why), 5 warm-up and 5 measured
 * iterations of a second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.XMS, BenchJvm.XMX, BenchJvm.PRE_TOUCH, BenchJvm.HUGE_PAGES,
        BenchJvm.VECTOR_MODULE, BenchJvm.NATIVE_ACCESS})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class ThroughputBenchmark {
}
