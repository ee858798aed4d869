package org.jspin.bench.anchors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.jspin.bench.pack.PackResult;
import org.junit.jupiter.api.Test;

/** jspin's fractions of its copy against the better MPI's fraction of its memcpy, round by round. */
class PackVersusTest {
    private static AnchorResults anchors(double ompiCopy, double ompiPack, double mpichCopy, double mpichPack) {
        return AnchorResults.parse(List.of(
                "RESULT openmpi contig4MiB memcpy " + ompiCopy,
                "RESULT openmpi vec_blk512 pack_double " + ompiPack,
                "RESULT openmpi vec_blk512 unpack_double " + ompiPack,
                "RESULT mpich contig4MiB memcpy " + mpichCopy,
                "RESULT mpich vec_blk512 pack_double " + mpichPack,
                "RESULT mpich vec_blk4 pack_byte 1.0",
                "RESULT mpich vec_blk4 unpack_byte 2.0"));
    }

    @Test
    void eachImplementationIsMeasuredAgainstItsOwnCopyAndTheBetterMpiSetsTheBar() {
        PackVersus v = new PackVersus();
        // round 1: Open MPI packs at 0.9 of its memcpy, MPICH at 0.5: the bar is 0.9
        v.add(anchors(30, 27, 20, 10), List.of(new PackResult("vector_d_512B", 512, 24, 30, 30),
                new PackResult("vector_b_4B", 4, 10, 10, 20), new PackResult("contig_4MiB", 4 << 20, 30, 30, 30)));
        // round 2: the machine is slower for everyone; MPICH is the better one at 0.75
        v.add(anchors(20, 10, 16, 12), List.of(new PackResult("vector_d_512B", 512, 15, 10, 20),
                new PackResult("vector_b_4B", 4, 10, 10, 20)));
        assertEquals(2, v.rounds());
        List<PackVersus.Row> rows = v.rows();
        assertEquals(List.of("vector_d_512B", "vector_d_512B", "vector_b_4B", "vector_b_4B"),
                rows.stream().map(PackVersus.Row::jspinCase).toList(), "pack then unpack, vector cases only");
        PackVersus.Row pack = rows.get(0);
        assertTrue(pack.pack());
        assertEquals(512, pack.block());
        assertEquals(List.of(0.8, 0.75), pack.ours());
        assertEquals(List.of(0.9, 0.75), pack.better());
        assertEquals(0.8 / 0.9, pack.ratio().get(0), 1e-12);
        assertEquals(1.0, pack.ratio().get(1), 1e-12);
        assertEquals(List.of(24.0, 15.0), pack.gbps());
        assertEquals(List.of(27.0, 12.0), pack.theirGbps(), "the faster MPI in GB/s, whichever had the better fraction");
        assertEquals(1.6, PackVersus.Row.spread(pack.gbps()), 1e-12);
        assertEquals(List.of(30.0, 20.0), pack.copyGbps(), "jspin's own copy in each round");
        assertEquals(Map.of("openmpi", List.of(27.0, 10.0), "mpich", List.of(10.0, 12.0)), pack.mpiGbps(),
                "each MPI's own rate per round");
        PackVersus.Row unpack = rows.get(1);
        assertEquals(List.of(0.9, 0.5), unpack.better(), "MPICH printed no unpack of 512 B blocks");
        PackVersus.Row bytes = rows.get(2);
        assertEquals(List.of(1 / 20.0, 1 / 16.0), bytes.better(), "vector_b_ cases meet the anchors' MPI_BYTE figures");
        assertTrue(Double.isNaN(PackVersus.Row.spread(List.of())));
    }
}
