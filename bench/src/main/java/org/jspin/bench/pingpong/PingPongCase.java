package org.jspin.bench.pingpong;

import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * One measurement between two ranks. A ping-pong case ({@code window} 0) bounces a message of
 * {@code count} elements of {@code type}; latency cases report half the round trip, bandwidth
 * cases payload bytes over it. A streaming case sends {@code window} messages as isends, which
 * rank 1 takes with as many irecvs and answers with a 1-byte ack (as osu_bw and the anchors'
 * {@code pingpong.c} do); it reports payload bytes of the window over the window's time.
 *
 * @param name       what the report calls it
 * @param type       the message's datatype (committed)
 * @param count      elements per message
 * @param latency    whether the figure of merit is time (else bandwidth)
 * @param iterations round trips (or windows) measured
 * @param window     messages in flight per window, 0 for a ping-pong
 */
public record PingPongCase(String name, Datatype type, long count, boolean latency, int iterations, int window) {
    /** A ping-pong case. */
    public PingPongCase(String name, Datatype type, long count, boolean latency, int iterations) {
        this(name, type, count, latency, iterations, 0);
    }

    /** @return whether this is a streaming (window) case */
    public boolean streaming() {
        return window > 0;
    }

    /** @return payload bytes per message */
    public long bytes() {
        return type.packSize(count);
    }

    /** @return bytes a buffer for the message spans */
    public long bufferBytes() {
        return count == 0 ? 0 : type.trueUb() + (count - 1) * type.extent();
    }

    /**
     * The issues' cases: latency at 1 B, 8 B and 1 KiB; ping-pong bandwidth at 64 KiB, 1 MiB and 4 MiB
     * contiguous, and a 4 MiB vector of 64-byte blocks at a 128-byte stride; streaming bandwidth at
     * 64 KiB (a window of 64 isends), 1 MiB and 4 MiB (windows of 16), as the anchors measure it.
     *
     * @param scale multiplies the round trips (1 for the report; smaller for a smoke run)
     * @throws MpiException ERR_ARG naming the scale unless it is a positive number
     */
    public static List<PingPongCase> standard(double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new MpiException(ErrorClass.ERR_ARG, "the scale of the round trips must be a positive number, got "
                    + scale);
        }
        return List.of(
                new PingPongCase("latency_1B", Datatype.BYTE, 1, true, rounds(20_000, scale)),
                new PingPongCase("latency_8B", Datatype.BYTE, 8, true, rounds(20_000, scale)),
                new PingPongCase("latency_1KiB", Datatype.BYTE, 1024, true, rounds(20_000, scale)),
                new PingPongCase("bw_64KiB", Datatype.BYTE, 64 << 10, false, rounds(4_000, scale)),
                new PingPongCase("bw_1MiB", Datatype.BYTE, 1 << 20, false, rounds(600, scale)),
                new PingPongCase("bw_4MiB", Datatype.BYTE, 4 << 20, false, rounds(200, scale)),
                new PingPongCase("bw_4MiB_vector_64B_stride_128B",
                        Datatype.vector(1 << 16, 8, 16, Datatype.DOUBLE).commit(), 1, false, rounds(200, scale)),
                new PingPongCase("stream_64KiB", Datatype.BYTE, 64 << 10, false, rounds(200, scale), 64),
                new PingPongCase("stream_1MiB", Datatype.BYTE, 1 << 20, false, rounds(60, scale), 16),
                new PingPongCase("stream_4MiB", Datatype.BYTE, 4 << 20, false, rounds(20, scale), 16));
    }

    private static int rounds(int n, double scale) {
        return Math.max(3, (int) Math.round(n * scale));
    }
}
