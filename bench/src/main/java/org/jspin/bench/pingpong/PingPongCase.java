package org.jspin.bench.pingpong;

import java.util.List;

import org.jspin.datatype.Datatype;

/**
 * One ping-pong measurement: a message of {@code count} elements of {@code type} bounced between
 * two ranks. Latency cases report half the round trip; bandwidth cases payload bytes over it.
 *
 * @param name       what the report calls it
 * @param type       the message's datatype (committed)
 * @param count      elements per message
 * @param latency    whether the figure of merit is time (else bandwidth)
 * @param iterations round trips measured
 */
public record PingPongCase(String name, Datatype type, long count, boolean latency, int iterations) {
    /** @return payload bytes per message */
    public long bytes() {
        return type.packSize(count);
    }

    /** @return bytes a buffer for the message spans */
    public long bufferBytes() {
        return count == 0 ? 0 : type.trueUb() + (count - 1) * type.extent();
    }

    /**
     * The cases: latency at 1 B, 8 B and 1 KiB; ping-pong bandwidth at 64 KiB, 1 MiB and 4 MiB
     * contiguous, and a 4 MiB vector of 64-byte blocks at a 128-byte stride.
     *
     * @param scale multiplies the round trips (1 for the report; smaller for a smoke run)
     */
    public static List<PingPongCase> standard(double scale) {
        return List.of(
                new PingPongCase("latency_1B", Datatype.BYTE, 1, true, rounds(20_000, scale)),
                new PingPongCase("latency_8B", Datatype.BYTE, 8, true, rounds(20_000, scale)),
                new PingPongCase("latency_1KiB", Datatype.BYTE, 1024, true, rounds(20_000, scale)),
                new PingPongCase("bw_64KiB", Datatype.BYTE, 64 << 10, false, rounds(4_000, scale)),
                new PingPongCase("bw_1MiB", Datatype.BYTE, 1 << 20, false, rounds(600, scale)),
                new PingPongCase("bw_4MiB", Datatype.BYTE, 4 << 20, false, rounds(200, scale)),
                new PingPongCase("bw_4MiB_vector_64B_stride_128B",
                        Datatype.vector(1 << 16, 8, 16, Datatype.DOUBLE).commit(), 1, false, rounds(200, scale)));
    }

    private static int rounds(int n, double scale) {
        return Math.max(3, (int) Math.round(n * scale));
    }
}
