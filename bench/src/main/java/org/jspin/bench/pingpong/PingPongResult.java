package org.jspin.bench.pingpong;

/**
 * What one case measured, from the round trips' histogram: one-way time (half a round trip) at
 * the median and the 90th and 99th percentiles, and the payload bandwidth at the median; and, from
 * rank 0's meters over the measured round trips, the rate at which its CPU packed and unpacked the
 * message in place (the host backend's {@code jspin.cpu.*} meters), which shows what packing costs
 * inside an exchange rather than in a benchmark loop.
 *
 * @param name        the case
 * @param bytes       payload bytes per message
 * @param iterations  round trips measured
 * @param p50Micros   median one-way time (for a streaming case: the median time of a window)
 * @param p90Micros   90th percentile one-way time
 * @param p99Micros   99th percentile one-way time
 * @param gbps        payload bytes / median one-way time, in 1e9 B/s
 * @param packGbps    bytes rank 0 packed / time it spent packing them, in 1e9 B/s; 0 if it packed none
 * @param unpackGbps  bytes rank 0 unpacked / time it spent unpacking them, in 1e9 B/s; 0 if it unpacked none
 * @param cores       the same round trips split by the state of the machine the cross-core probe
 *                    found before each block of them ({@link CoreStates}); {@link CoreSplit#NONE}
 *                    if not probed (JSON written before the probes has none: read as NONE)
 * @param floorMicros the median one-way time of the {@link CopyFloor} measured right after the
 *                    case: two threads of this JVM bouncing the message by copies alone, which no
 *                    in-JVM fabric can beat; 0 where not measured (over a network, or a message
 *                    that is not contiguous, or streamed)
 */
public record PingPongResult(String name, long bytes, int iterations, double p50Micros, double p90Micros,
                             double p99Micros, double gbps, double packGbps, double unpackGbps, CoreSplit cores,
                             double floorMicros) {

    /** Reads a missing split as {@link CoreSplit#NONE}. */
    public PingPongResult {
        cores = cores == null ? CoreSplit.NONE : cores;
    }

    /** A result without a copy floor. */
    public PingPongResult(String name, long bytes, int iterations, double p50Micros, double p90Micros,
                          double p99Micros, double gbps, double packGbps, double unpackGbps, CoreSplit cores) {
        this(name, bytes, iterations, p50Micros, p90Micros, p99Micros, gbps, packGbps, unpackGbps, cores, 0);
    }

    /** A result without a split by state. */
    public PingPongResult(String name, long bytes, int iterations, double p50Micros, double p90Micros,
                          double p99Micros, double gbps, double packGbps, double unpackGbps) {
        this(name, bytes, iterations, p50Micros, p90Micros, p99Micros, gbps, packGbps, unpackGbps, CoreSplit.NONE);
    }

    /** A result without packing (a contiguous exchange, or one over a bare socket) nor a split by state. */
    public PingPongResult(String name, long bytes, int iterations, double p50Micros, double p90Micros,
                          double p99Micros, double gbps) {
        this(name, bytes, iterations, p50Micros, p90Micros, p99Micros, gbps, 0, 0);
    }

    /** @return this result with its round trips split by state */
    public PingPongResult withCores(CoreSplit split) {
        return new PingPongResult(name, bytes, iterations, p50Micros, p90Micros, p99Micros, gbps, packGbps, unpackGbps,
                split, floorMicros);
    }
}
