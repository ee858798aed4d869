package org.jspin.bench.jmh;

import org.jspin.bench.pack.CaseBuffers;
import org.jspin.bench.pack.PackCases;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Pack, unpack and a contiguous copy of the same payload for one {@link PackCases} case per JMH
 * parameter, each in its own fork (so, unlike {@code PackSweep}, with a JIT profile of that case
 * alone). The default cases are a representative subset; any case name, layouts included, can be
 * given with {@code -p caseName=a,b,...}.
 *
 * <p>{@code java -jar bench/target/benchmarks.jar '\.PackBenchmark\.' -p caseName=vector_d_64B}
 * (JMH takes the name as a regular expression, which a bare {@code PackBenchmark} would also find
 * in {@link ColdPackBenchmark})
 */
public class PackBenchmark extends ThroughputBenchmark {
    /** The case to measure (a name from {@link PackCases}). */
    @Param({"vector_d_8B", "vector_d_64B", "vector_d_256B", "vector_d_4096B", "vector_b_4B", "indexed_irregular",
            "struct_int_double3", "cube_face_yz", "contig_4MiB"})
    public String caseName;

    private CaseBuffers buffers;
    private long payload;

    /** Builds the case and its buffers once per fork. */
    @Setup(Level.Trial)
    public void setUp() {
        buffers = new CaseBuffers(PackCases.named(caseName));
        payload = buffers.benchCase().payloadBytes();
    }

    /** Frees the native buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        buffers.close();
    }

    /** Packs the whole message (typed to contiguous). */
    @Benchmark
    public long pack(PayloadBytes counter) {
        counter.bytes += payload;
        return buffers.pack();
    }

    /** Unpacks the whole message (contiguous to typed). */
    @Benchmark
    public long unpack(PayloadBytes counter) {
        counter.bytes += payload;
        return buffers.unpack();
    }

    /** One contiguous copy of the payload's size: the ceiling for pack and unpack. */
    @Benchmark
    public long copy(PayloadBytes counter) {
        counter.bytes += payload;
        return buffers.copy();
    }
}
