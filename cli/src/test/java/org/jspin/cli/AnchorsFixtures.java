package org.jspin.cli;

import java.util.List;
import java.util.Map;

import org.jspin.bench.anchors.AnchorResults;
import org.jspin.bench.anchors.ByState;
import org.jspin.bench.anchors.FloorRounds;
import org.jspin.bench.anchors.PackVersus;
import org.jspin.bench.anchors.Versus;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pingpong.CoreSplit;
import org.jspin.bench.pingpong.PingPongResult;

/** Fixed rounds of {@code jspin bench anchors}, for the reports' tests: the same input, the same text. */
final class AnchorsFixtures {
    private AnchorsFixtures() {
    }

    private static AnchorResults anchors(double lat, double bw, double vector, double mpichLat) {
        return AnchorResults.parse(List.of(
                "RESULT ompi-tcp lat_1B " + lat + " us",
                "RESULT ompi-tcp ppbw_4096KiB " + bw + " GB/s",
                "RESULT ompi-tcp ppvec_4096KiB " + vector + " GB/s",
                "RESULT mpich-tcp lat_1B " + mpichLat + " us"));
    }

    private static List<PingPongResult> jspin(double lat, double p99, double bw, double vector, CoreSplit split) {
        return List.of(new PingPongResult("latency_1B", 1, 100, lat, lat, p99, 0.0002, 0, 0, split),
                new PingPongResult("bw_4MiB", 4 << 20, 100, 1000, 1100, 1200, bw, 0, 0, split),
                new PingPongResult("bw_4MiB_vector_64B_stride_128B", 4 << 20, 100, 2000, 2100, 2200, vector, 1.5,
                        1.6, split));
    }

    /** Two rounds, bound and unbound, with a latency tail in the second. */
    static Versus versus() {
        Versus v = new Versus(List.of("bound", "unbound"));
        v.add(anchors(6, 2, 1, 8), Map.of("bound", jspin(5, 7, 1.8, 0.9, CoreSplit.NONE),
                "unbound", jspin(7, 9, 1.5, 0.7, CoreSplit.NONE)));
        v.add(anchors(5, 2.5, 1.2, 4), Map.of("bound", jspin(4, 30, 2.2, 1.1, CoreSplit.NONE),
                "unbound", jspin(6, 8, 1.9, 0.8, CoreSplit.NONE)));
        return v;
    }

    /** Two rounds of the floor beside jspin bound. */
    static FloorRounds floors() {
        FloorRounds f = new FloorRounds();
        f.add(jspin(3, 4, 3.0, 2.0, CoreSplit.NONE), jspin(5, 7, 1.8, 0.9, CoreSplit.NONE));
        f.add(jspin(2.5, 4, 3.5, 2.1, CoreSplit.NONE), jspin(4, 30, 2.2, 1.1, CoreSplit.NONE));
        return f;
    }

    /** Two rounds by the machine's state: the first near, the second far. */
    static ByState byState() {
        ByState b = new ByState();
        b.add(anchors(6, 2, 1, 8), 100, 110, jspin(5, 7, 1.8, 0.9, new CoreSplit(1, 5, 0, 90, 0)));
        b.add(anchors(8, 1.5, 0.8, 9), 440, 450, jspin(7, 9, 1.4, 0.6, new CoreSplit(1, 7, 0, 445, 0)));
        return b;
    }

    /** Two rounds of the pack sweep against both MPIs. */
    static PackVersus packVersus() {
        PackVersus v = new PackVersus();
        v.add(AnchorResults.parse(List.of("RESULT openmpi contig4MiB memcpy 30",
                "RESULT openmpi vec_blk512 pack_double 27", "RESULT openmpi vec_blk512 unpack_double 25",
                "RESULT mpich contig4MiB memcpy 20", "RESULT mpich vec_blk512 pack_double 10",
                "RESULT mpich vec_blk4 pack_byte 1.0", "RESULT mpich vec_blk4 unpack_byte 2.0")),
                List.of(new PackResult("vector_d_512B", 512, 24, 30, 30), new PackResult("vector_b_4B", 4, 10, 10, 20)));
        v.add(AnchorResults.parse(List.of("RESULT openmpi contig4MiB memcpy 20",
                "RESULT openmpi vec_blk512 pack_double 10", "RESULT mpich contig4MiB memcpy 16",
                "RESULT mpich vec_blk512 pack_double 12", "RESULT mpich vec_blk4 pack_byte 1.5")),
                List.of(new PackResult("vector_d_512B", 512, 15, 10, 20), new PackResult("vector_b_4B", 4, 11, 9, 21)));
        return v;
    }
}
