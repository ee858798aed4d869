package org.jspin.bench.pack;

/**
 * The measured speed of one case, as medians over the samples, in GB/s of payload (1e9 bytes of
 * packed data per second).
 *
 * @param name       the case's name
 * @param blockBytes the case's mean region length in bytes
 * @param packGbps   median pack speed
 * @param unpackGbps median unpack speed
 * @param copyGbps   median speed of a contiguous copy of the same payload, measured interleaved
 *                   with the other two
 */
public record PackResult(String name, double blockBytes, double packGbps, double unpackGbps, double copyGbps) {

    /** @return pack speed relative to the contiguous copy (1 = as fast as a plain copy) */
    public double packOverCopy() {
        return packGbps / copyGbps;
    }

    /** @return unpack speed relative to the contiguous copy */
    public double unpackOverCopy() {
        return unpackGbps / copyGbps;
    }
}
