package org.jspin.bench.anchors;

import java.util.List;

/**
 * One of {@code jspin bench pingpong}'s cases and the test of the anchors' {@code pingpong.c} that
 * measures the same thing (ANCHORS.md: {@code ppbw_*} is a ping-pong, {@code bw_*} a window of
 * isends, which jspin calls {@code stream_*}).
 *
 * @param jspin   jspin's case name
 * @param anchor  the anchors' test name
 * @param latency whether the figure is a time (smaller is better) rather than a rate
 */
public record AnchorCase(String jspin, String anchor, boolean latency) {
    /** The Open MPI figures' label in the anchors' ping-pong output (TCP over loopback, bound). */
    public static final String OPEN_MPI = "ompi-tcp";
    /** The MPICH figures' label in the anchors' ping-pong output. */
    public static final String MPICH = "mpich-tcp";
    /** The contiguous 4 MiB ping-pong, against which the vector is set. */
    public static final String CONTIGUOUS_4MIB = "bw_4MiB";
    /** The 4 MiB vector of 64-byte blocks. */
    public static final String VECTOR_4MIB = "bw_4MiB_vector_64B_stride_128B";

    /** Every case both measure, in {@code bench pingpong}'s order. */
    public static final List<AnchorCase> PINGPONG = List.of(
            new AnchorCase("latency_1B", "lat_1B", true),
            new AnchorCase("latency_8B", "lat_8B", true),
            new AnchorCase("latency_1KiB", "lat_1024B", true),
            new AnchorCase("bw_64KiB", "ppbw_64KiB", false),
            new AnchorCase("bw_1MiB", "ppbw_1024KiB", false),
            new AnchorCase(CONTIGUOUS_4MIB, "ppbw_4096KiB", false),
            new AnchorCase(VECTOR_4MIB, "vecpp_vector64B_4MiB", false),
            new AnchorCase("stream_64KiB", "bw_64KiB", false),
            new AnchorCase("stream_1MiB", "bw_1024KiB", false),
            new AnchorCase("stream_4MiB", "bw_4096KiB", false));

    /**
     * @return how far jspin is ahead of the other implementation in one round: above 1 when it is
     *         faster (their time over ours for latency, our rate over theirs otherwise)
     */
    public double ratio(double jspinFigure, double theirFigure) {
        return latency ? theirFigure / jspinFigure : jspinFigure / theirFigure;
    }
}
