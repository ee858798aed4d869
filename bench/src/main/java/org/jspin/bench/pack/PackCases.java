package org.jspin.bench.pack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.datatype.json.DatatypeJson;

/**
 * The pack/unpack benchmark cases: the shapes of {@code shared/anchors/ANCHORS.md} (so that the
 * figures compare with MPICH and Open MPI measured on this kind of machine) plus every DDTBench
 * application layout of {@code shared/layouts/}.
 *
 * <p>Built-in cases are made on demand ({@link #named}), so a benchmark of one case does not build
 * the others; {@link #all()} builds every one.
 */
public final class PackCases {
    /** Payload of the vector sweep, the indexed and the contiguous cases: 4 MiB, as in the anchors. */
    public static final long PAYLOAD = 4L << 20;
    /** Block sizes of the vector sweep (bytes); the stride is always twice the block. */
    public static final List<Long> VECTOR_BLOCKS = List.of(4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L,
            2048L, 4096L, 8192L, 16384L);
    /** Seed of the irregular indexed case: fixed, so every run measures the same type map. */
    public static final long INDEXED_SEED = 2012;
    /** Elements of the struct cases: 149796 x 28 B = 4 MiB - 16 B, as in the anchors. */
    public static final long STRUCT_COUNT = 149796;
    /** Edge of the double cube whose faces are packed. */
    public static final long CUBE = 128;

    private static final Map<String, Supplier<PackCase>> BUILT_IN = builtInSuppliers();

    private PackCases() {
    }

    /** @return the names of the built-in (non-layout) cases, in table order */
    public static List<String> builtInNames() {
        return List.copyOf(BUILT_IN.keySet());
    }

    /** @return the built-in cases, in table order */
    public static List<PackCase> builtIn() {
        return BUILT_IN.values().stream().map(Supplier::get).toList();
    }

    /** @return every case: the built-in ones, then the layouts of the located shared directory */
    public static List<PackCase> all() {
        List<PackCase> out = new ArrayList<>(builtIn());
        out.addAll(layouts(SharedDir.layouts()));
        return out;
    }

    /**
     * @return the case called {@code name}: a built-in one, else the layout {@code name.json}
     * @throws NoSuchElementException if there is none
     */
    public static PackCase named(String name) {
        Supplier<PackCase> s = BUILT_IN.get(name);
        if (s != null) {
            return s.get();
        }
        Path file = SharedDir.layouts().resolve(name + ".json");
        if (!Files.isRegularFile(file)) {
            throw new NoSuchElementException("no benchmark case \"" + name + "\": not built in (" + BUILT_IN.keySet()
                    + ") and no " + file);
        }
        return layout(file);
    }

    /** @return one case per {@code *.json} file of {@code dir}, count 1, sorted by name */
    public static List<PackCase> layouts(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().map(PackCases::layout)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list layouts in " + dir, e);
        }
    }

    /** @return the case of one layout file: named by the file name without {@code .json}, count 1 */
    public static PackCase layout(Path file) {
        String fileName = file.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - ".json".length());
        try {
            return PackCase.of(name, DatatypeJson.parse(Files.readString(file)), 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read layout " + file, e);
        }
    }

    // ---- built-in shapes ------------------------------------------------------------------------

    private static Map<String, Supplier<PackCase>> builtInSuppliers() {
        Map<String, Supplier<PackCase>> m = new LinkedHashMap<>();
        for (long blk : VECTOR_BLOCKS) {
            // MPI_DOUBLE wherever the block is whole doubles, as in the anchors; bytes otherwise
            Datatype element = blk % Datatype.DOUBLE.size() == 0 ? Datatype.DOUBLE : Datatype.BYTE;
            m.put(vectorName(blk, element), () -> vector(blk, element));
        }
        m.put("contig_4MiB", () -> PackCase.of("contig_4MiB", Datatype.contiguous(PAYLOAD, Datatype.BYTE), 1));
        m.put("indexed_irregular", PackCases::indexedIrregular);
        m.put("struct_int_double3", () -> PackCase.of("struct_int_double3", intDouble3(), STRUCT_COUNT));
        m.put("struct_vector", () -> PackCase.of("struct_vector", Datatype.vector(STRUCT_COUNT, 1, 2, intDouble3()), 1));
        // Faces of a 128^3 cube of doubles stored with x fastest: C order, dimensions [z][y][x].
        // Each face is the plane at index 1 (the first interior plane behind a ghost layer).
        m.put("cube_face_yz", () -> cubeFace("cube_face_yz", 2));
        m.put("cube_face_xz", () -> cubeFace("cube_face_xz", 1));
        m.put("cube_face_xy", () -> cubeFace("cube_face_xy", 0));
        return Collections.unmodifiableMap(m);
    }

    /**
     * {@code PAYLOAD / blk} blocks of {@code blk} bytes at stride {@code 2 * blk}, in elements of
     * {@code element} (as {@code MPI_Type_vector} would be called with it).
     */
    static PackCase vector(long blk, Datatype element) {
        long e = element.size();
        return PackCase.of(vectorName(blk, element), Datatype.vector(PAYLOAD / blk, blk / e, 2 * blk / e, element), 1);
    }

    /** @return {@code vector_d_64B} style names: element letter, then the block in bytes */
    static String vectorName(long blk, Datatype element) {
        return "vector_" + (element == Datatype.BYTE ? "b" : "d") + "_" + blk + "B";
    }

    /**
     * Blocks of 1..32 doubles separated by gaps of 1..16 doubles, drawn uniformly with a fixed
     * seed, until the blocks hold {@link #PAYLOAD} bytes (the last block is cut to fit). Every gap
     * is at least one double, so no two blocks merge and the regions are the blocks.
     */
    static PackCase indexedIrregular() {
        SplittableRandom rnd = new SplittableRandom(INDEXED_SEED);
        long doubles = PAYLOAD / Datatype.DOUBLE.size();
        List<long[]> blocks = new ArrayList<>();
        long at = 0;
        for (long left = doubles; left > 0; ) {
            long len = Math.min(left, rnd.nextInt(1, 33));
            blocks.add(new long[] {len, at});
            left -= len;
            at += len + rnd.nextInt(1, 17);
        }
        long[] lens = new long[blocks.size()];
        long[] disps = new long[blocks.size()];
        for (int i = 0; i < lens.length; i++) {
            lens[i] = blocks.get(i)[0];
            disps[i] = blocks.get(i)[1];
        }
        return PackCase.of("indexed_irregular", Datatype.indexed(lens, disps, Datatype.DOUBLE), 1);
    }

    /** struct {int at 0; double[3] at 8} resized to extent 32: 28 data bytes in every 32. */
    static Datatype intDouble3() {
        Datatype s = Datatype.struct(new long[] {1, 3}, new long[] {0, 8},
                new Datatype[] {Datatype.INT, Datatype.DOUBLE});
        return Datatype.resized(0, 32, s);
    }

    /** The plane at index 1 of dimension {@code dim} (0 = z, 1 = y, 2 = x) of the double cube. */
    static PackCase cubeFace(String name, int dim) {
        long[] sizes = {CUBE, CUBE, CUBE};
        long[] subsizes = {CUBE, CUBE, CUBE};
        long[] starts = {0, 0, 0};
        subsizes[dim] = 1;
        starts[dim] = 1;
        return PackCase.of(name, Datatype.subarray(sizes, subsizes, starts, Order.C, Datatype.DOUBLE), 1);
    }
}
