package org.jspin.datatype.property;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspin.datatype.Combiner;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.HVectorType;
import org.jspin.datatype.HIndexedType;
import org.jspin.datatype.IndexedType;
import org.jspin.datatype.Order;
import org.jspin.datatype.ResizedType;
import org.jspin.datatype.StructType;
import org.jspin.datatype.SubarrayType;
import org.jspin.datatype.VectorType;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypeMapOracle;
import org.junit.jupiter.api.Test;

/**
 * The properties are only as good as the types they run on: this checks that the seeds the suite
 * uses really contain every constructor and every awkward case the generator promises, and that
 * the bounds property is not mostly skipped.
 */
class GeneratorCoverageTest {

    private static final TypeMapOracle ORACLE = new TypeMapOracle();

    @Test
    void theSeedsCoverEveryConstructorAndEdgeCase() {
        Set<Combiner> combiners = EnumSet.noneOf(Combiner.class);
        Set<String> features = new HashSet<>();
        int maxDepth = 0;
        long maxRegions = 0;
        List<TypeCase> cases = Seeds.seeds().mapToObj(Seeds::get).toList();
        for (TypeCase c : cases) {
            walk(c.type(), combiners, features, ORACLE, new IdentityHashMap<>());
            maxDepth = Math.max(maxDepth, depth(c.type()));
            maxRegions = Math.max(maxRegions, c.message().count());
            mark(features, c.count() == 0, "count 0 message");
            mark(features, c.type().size() == 0, "empty type");
            mark(features, c.count() > 1 && c.message().total() > c.hi() - c.lo(), "message overlapping itself");
        }
        assertTrue(combiners.containsAll(EnumSet.allOf(Combiner.class)), "constructors seen: " + combiners);
        for (String f : List.of("negative vector stride", "zero vector stride", "overlapping vector stride",
                "negative byte stride", "zero count", "zero blocklength", "negative displacement",
                "fortran order", "c order", "3d subarray", "resized negative lb", "resized extent below true extent",
                "resized extent 0", "shared struct member", "count 0 message", "empty type",
                "message overlapping itself")) {
            assertTrue(features.contains(f), "the seeds never produce: " + f + " (seen " + features + ")");
        }
        assertTrue(maxDepth >= 4, "deepest nesting " + maxDepth);
        assertTrue(maxRegions >= 200, "most regions in a message " + maxRegions);
    }

    private static void walk(Datatype t, Set<Combiner> combiners, Set<String> f, TypeMapOracle b,
            Map<Datatype, Boolean> seen) {
        if (seen.put(t, true) != null) {
            return;
        }
        combiners.add(t.combiner());
        switch (t) {
            case VectorType v -> {
                mark(f, v.stride() < 0, "negative vector stride");
                mark(f, v.stride() == 0, "zero vector stride");
                mark(f, v.stride() > 0 && v.stride() < v.blocklength(), "overlapping vector stride");
                mark(f, v.count() == 0, "zero count");
                mark(f, v.blocklength() == 0, "zero blocklength");
            }
            case HVectorType v -> mark(f, v.strideBytes() < 0, "negative byte stride");
            case IndexedType x -> mark(f, Arrays.stream(x.displacements()).anyMatch(d -> d < 0),
                    "negative displacement");
            case HIndexedType x -> mark(f, Arrays.stream(x.displacementsBytes()).anyMatch(d -> d < 0),
                    "negative displacement");
            case StructType s -> {
                for (int k = 1; k < s.types().size(); k++) {
                    mark(f, s.types().get(k) == s.types().get(k - 1), "shared struct member");
                }
            }
            case SubarrayType s -> {
                mark(f, s.order() == Order.C, "c order");
                mark(f, s.order() == Order.FORTRAN, "fortran order");
                mark(f, s.sizes().length == 3, "3d subarray");
            }
            case ResizedType r -> {
                TypeMapOracle.Expected o = b.expected(r.old());
                mark(f, r.lb() < 0, "resized negative lb");
                mark(f, r.extent() == 0, "resized extent 0");
                mark(f, r.extent() > 0 && r.extent() < o.trueUb() - o.trueLb(), "resized extent below true extent");
            }
            default -> {
            }
        }
        for (Datatype child : TypeMapOracle.children(t)) {
            walk(child, combiners, f, b, seen);
        }
    }

    private static void mark(Set<String> features, boolean present, String feature) {
        if (present) {
            features.add(feature);
        }
    }

    private static int depth(Datatype t) {
        int d = 0;
        for (Datatype child : TypeMapOracle.children(t)) {
            d = Math.max(d, depth(child));
        }
        return TypeMapOracle.children(t).isEmpty() ? 0 : d + 1;
    }
}
