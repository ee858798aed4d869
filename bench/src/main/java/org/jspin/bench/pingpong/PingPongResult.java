package org.jspin.bench.pingpong;

/**
 * What one case measured, from the round trips' histogram: one-way time (half a round trip) at
 * the median and the 90th and 99th percentiles, and the payload bandwidth at the median.
 *
 * @param name       the case
 * @param bytes      payload bytes per message
 * @param iterations round trips measured
 * @param p50Micros  median one-way time (for a streaming case: the median time of a window)
 * @param p90Micros  90th percentile one-way time
 * @param p99Micros  99th percentile one-way time
 * @param gbps       payload bytes / median one-way time, in 1e9 B/s
 */
public record PingPongResult(String name, long bytes, int iterations, double p50Micros, double p90Micros,
                             double p99Micros, double gbps) {
}
