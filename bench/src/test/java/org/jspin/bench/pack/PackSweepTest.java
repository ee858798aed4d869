package org.jspin.bench.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The sweep runs end to end and reports usable numbers. Never asserts on speed: the machines are
 * shared and noisy, and quick mode's samples are too short to mean anything.
 */
class PackSweepTest {

    private static final List<String> NAMES = List.of("vector_b_4B", "vector_d_64B", "vector_d_4096B",
            "indexed_irregular", "struct_vector", "cube_face_yz", "contig_4MiB", "nas_mg_x_34x18x18");

    @Test
    void quickSweepGivesPositiveFiniteSpeeds() {
        List<PackCase> cases = NAMES.stream().map(PackCases::named).toList();
        List<PackResult> seen = new ArrayList<>();
        List<PackResult> results = PackSweep.run(cases, PackSweep.Options.quick(), seen::add);
        assertEquals(results, seen, "each result is reported as it is measured");
        assertEquals(NAMES, results.stream().map(PackResult::name).toList());
        for (PackResult r : results) {
            for (double v : new double[] {r.packGbps(), r.unpackGbps(), r.copyGbps(), r.packOverCopy(),
                    r.unpackOverCopy()}) {
                assertTrue(v > 0 && Double.isFinite(v), r.toString());
            }
            assertTrue(ResultTable.row(r).contains(r.name()));
        }
        assertEquals(64, results.get(1).blockBytes());
    }

    @Test
    void filterSelectsCases() {
        List<PackCase> cases = NAMES.stream().map(PackCases::named).toList();
        List<PackResult> r = PackSweep.run(cases, PackSweep.Options.quick().withFilter("^cube|contig"), x -> {
        });
        assertEquals(List.of("cube_face_yz", "contig_4MiB"), r.stream().map(PackResult::name).toList());
    }

    @Test
    void samplesThatJumpAreUnstable() {
        double[][] steady = {{10, 11, 12}, {5, 5.5, 6}, {1, 1.2, 1.9}};
        assertEquals(null, PackSweep.unstable(steady));
        double[][] jumped = {{10, 11, 12}, {0.3, 0.3, 30}, {1, 1, 1}};
        assertEquals(Op.PACK, PackSweep.unstable(jumped), "rows are indexed by Op.ordinal()");
    }

    @Test
    void optionsRejectNonsense() {
        assertThrows(IllegalArgumentException.class, () -> PackSweep.Options.quick().withSamples(0));
    }

    @Test
    void explicitSharedDirectoryMustBeOne() {
        String saved = System.getProperty(SharedDir.PROPERTY);
        try {
            System.setProperty(SharedDir.PROPERTY, "/nonexistent/shared");
            IllegalStateException e = assertThrows(IllegalStateException.class, SharedDir::locate);
            assertTrue(e.getMessage().contains("/nonexistent/shared"), e.getMessage());
        } finally {
            if (saved == null) {
                System.clearProperty(SharedDir.PROPERTY);
            } else {
                System.setProperty(SharedDir.PROPERTY, saved);
            }
        }
    }
}
