package org.jspin.bench.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The case list is the one the anchors and the layouts call for. */
class PackCasesTest {

    private static final Map<String, PackCase> BUILT_IN = PackCases.builtIn().stream()
            .collect(Collectors.toMap(PackCase::name, Function.identity()));

    @Test
    void vectorSweepHasEveryAnchorBlock() {
        for (long blk : PackCases.VECTOR_BLOCKS) {
            String name = (blk % 8 == 0 ? "vector_d_" : "vector_b_") + blk + "B";
            PackCase c = BUILT_IN.get(name);
            assertTrue(c != null, "missing " + name);
            assertEquals(4L << 20, c.payloadBytes(), name);
            assertEquals(blk, c.blockBytes(), name + ": stride 2 x block keeps the blocks apart");
            assertEquals(2 * blk * (c.payloadBytes() / blk) - blk, c.type().trueExtent(), name);
        }
        assertTrue(BUILT_IN.containsKey("vector_b_4B") && BUILT_IN.containsKey("vector_d_16384B"));
    }

    @Test
    void derivedShapesMatchTheAnchors() {
        assertEquals(4L << 20, BUILT_IN.get("contig_4MiB").payloadBytes());
        assertEquals(4L << 20, BUILT_IN.get("indexed_irregular").payloadBytes());
        double mean = BUILT_IN.get("indexed_irregular").blockBytes();
        assertTrue(mean > 8 * 15 && mean < 8 * 18, "blocks of 1..32 doubles average 16.5 doubles, got " + mean);

        PackCase s = BUILT_IN.get("struct_int_double3");
        assertEquals(149796 * 28L, s.payloadBytes());
        assertEquals(32, s.type().extent());
        PackCase sv = BUILT_IN.get("struct_vector");
        assertEquals(149796 * 28L, sv.payloadBytes());
        assertEquals(149796 * 64L - 32, sv.type().extent(), "vector(1, stride 2) of the 32-byte struct");

        assertEquals(8, BUILT_IN.get("cube_face_yz").blockBytes());
        assertEquals(1024, BUILT_IN.get("cube_face_xz").blockBytes());
        assertEquals(128 * 1024, BUILT_IN.get("cube_face_xy").blockBytes());
        for (String face : List.of("cube_face_yz", "cube_face_xz", "cube_face_xy")) {
            assertEquals(128 * 1024, BUILT_IN.get(face).payloadBytes(), face);
        }
    }

    @Test
    void everyLayoutFileIsACase() throws IOException {
        List<String> files;
        try (Stream<java.nio.file.Path> s = Files.list(SharedDir.layouts())) {
            files = s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".json"))
                    .map(f -> f.substring(0, f.length() - 5)).sorted().toList();
        }
        List<PackCase> layouts = PackCases.layouts(SharedDir.layouts());
        assertEquals(files, layouts.stream().map(PackCase::name).toList());
        assertTrue(files.size() > 50, "expected the DDTBench layouts, found " + files.size());
        for (PackCase c : layouts) {
            assertEquals(1, c.count(), c.name());
            assertTrue(c.blockBytes() > 0, c.name());
        }
        assertEquals(PackCases.builtInNames().size() + files.size(), PackCases.all().size());
    }

    @Test
    void namedFindsBuiltInsAndLayoutsAndNamesTheMissing() {
        assertEquals("vector_d_64B", PackCases.named("vector_d_64B").name());
        assertEquals("nas_mg_x_34x18x18", PackCases.named("nas_mg_x_34x18x18").name());
        assertThrows(java.util.NoSuchElementException.class, () -> PackCases.named("no_such_case"));
    }

    @Test
    void indexedIrregularIsTheSameEveryTime() {
        assertEquals(PackCases.named("indexed_irregular").type().toString(),
                PackCases.named("indexed_irregular").type().toString());
    }
}
