package org.jspin.bench.pingpong;

import org.jspin.mpi.Mpi;

/**
 * What a rank's CPU packed and unpacked so far, and how long that took, from its meters
 * ({@code jspin.cpu.bytes.packed/unpacked}, {@code jspin.cpu.pack/unpack.time}; a backend without
 * them reads 0).
 *
 * @param packedBytes   bytes packed
 * @param packNanos     nanoseconds spent packing them
 * @param unpackedBytes bytes unpacked
 * @param unpackNanos   nanoseconds spent unpacking them
 */
record CpuPacking(double packedBytes, double packNanos, double unpackedBytes, double unpackNanos) {

    /** @return this rank's figures so far */
    static CpuPacking of(Mpi mpi) {
        return new CpuPacking(mpi.meter("jspin.cpu.bytes.packed"), mpi.meter("jspin.cpu.pack.time"),
                mpi.meter("jspin.cpu.bytes.unpacked"), mpi.meter("jspin.cpu.unpack.time"));
    }

    /** @return what happened between {@code before} and this */
    CpuPacking minus(CpuPacking before) {
        return new CpuPacking(packedBytes - before.packedBytes, packNanos - before.packNanos,
                unpackedBytes - before.unpackedBytes, unpackNanos - before.unpackNanos);
    }

    /** @return bytes packed per nanosecond (1e9 B/s), or 0 if none were packed in measurable time */
    double packGbps() {
        return rate(packedBytes, packNanos);
    }

    /** @return bytes unpacked per nanosecond (1e9 B/s), or 0 if none were unpacked in measurable time */
    double unpackGbps() {
        return rate(unpackedBytes, unpackNanos);
    }

    private static double rate(double bytes, double nanos) {
        return bytes > 0 && nanos > 0 ? bytes / nanos : 0;
    }
}
