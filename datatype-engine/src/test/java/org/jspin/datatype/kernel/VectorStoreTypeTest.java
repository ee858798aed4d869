package org.jspin.datatype.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.TypeCheckInstruction;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every vector a compiled kernel loads is cast to its species' concrete class ({@code
 * VectorSpeciesHolder.T16/T32/T64}) before it is stored. Without the cast, C2 decides how to
 * inline the store from the JVM-wide type profile of the store's internal calls; once kernels of
 * two vector widths had run unoptimised, that profile named two classes, the store could not be
 * intrinsified: with {@code -XX:-TieredCompilation}, which {@code jspin run} uses when ranks
 * outnumber CPUs, `jspin bench pack --filter 'vector_(b_4B|d_8B|d_16B|d_32B|d_64B|d_128B)'`
 * packed 32-128 B blocks at 0.10-0.26 of the copy in every launch. A performance figure is no test
 * (and what a run sees depends on the JIT's history); this one checks that the kernels' code has
 * the cast.
 */
class VectorStoreTypeTest {

    @ParameterizedTest(name = "vectors of {0} bytes")
    @ValueSource(ints = {16, 32, 64})
    void everyLoadedVectorIsCastToItsSpeciesClassBeforeItsStore(int width) {
        List<Move> moves = List.of(new Move(0, 0, width, 1), new Move(width, width, width, 3));
        ClassModel model = ClassFile.of().parse(KernelCompiler.stridedClass(8L * width, 4L * width, moves));
        int methods = 0;
        for (MethodModel m : model.methods()) {
            String name = m.methodName().stringValue();
            if (!name.equals("gather") && !name.equals("scatter")) {
                continue;
            }
            methods++;
            List<String> ops = vectorOps(m);
            // per move: the class constant, the load, the cast, the checkcast, the store
            List<String> one = List.of("getstatic T" + width, "fromMemorySegment", "cast", "checkcast ByteVector",
                    "intoMemorySegment");
            assertEquals(2 * one.size(), ops.size(), name + ": " + ops); // one unrolled move, one loop body
            assertEquals(one, ops.subList(0, one.size()), name);
            assertEquals(one, ops.subList(one.size(), ops.size()), name);
        }
        assertEquals(2, methods, "gather and scatter");
    }

    /**
     * A unit's single 64-byte vector moves, and a loop of up to {@link KernelCompiler#MAX_LOOP_GROUPS}
     * groups of them, load up to {@link KernelCompiler#GROUP} vectors before storing them (each still
     * cast before its store); a longer loop, and narrower vectors, move one vector at a time.
     */
    @ParameterizedTest(name = "vectors of {0} bytes")
    @ValueSource(ints = {16, 32, 64})
    void groupsOfVectorsAreLoadedBeforeTheyAreStored(int width) {
        int group = width == KernelCompiler.GROUPED_WIDTH ? KernelCompiler.GROUP : 1;
        long w = width;
        // 13 single moves (a group of 8, then 5), a loop of 2 groups and 3 more, a loop of 3 groups
        // (every loop emitted once, as it runs)
        List<Move> moves = new ArrayList<>();
        for (int k = 0; k < 13; k++) {
            moves.add(new Move(k * w, k * w, width, 1));
        }
        moves.add(new Move(13 * w, 13 * w, width, 2L * group + 3));
        moves.add(new Move(40 * w, 40 * w, width, 3L * group));
        ClassModel model = ClassFile.of().parse(KernelCompiler.stridedClass(100 * w, 100 * w, moves));
        List<String> load = List.of("getstatic T" + width, "fromMemorySegment", "cast", "checkcast ByteVector");
        List<String> expected = new ArrayList<>();
        // grouped: the singles, the loop's group, its rest of 3 one at a time (fewer than MIN_GROUP);
        // one at a time: 13 singles, the loop's body
        int[] groups = group > 1 ? new int[] {group, 5, group, 1, 1, 1} : new int[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        for (int n : groups) {
            for (int k = 0; k < n; k++) {
                expected.addAll(load);
            }
            expected.addAll(java.util.Collections.nCopies(n, "intoMemorySegment"));
        }
        expected.addAll(load); // the long loop: one vector at a time
        expected.add("intoMemorySegment");
        for (MethodModel m : model.methods()) {
            String name = m.methodName().stringValue();
            if (name.equals("gather") || name.equals("scatter")) {
                assertEquals(expected, vectorOps(m), name);
            }
        }
    }

    /** The instructions of {@code m} that load, cast and store vectors, in order. */
    private static List<String> vectorOps(MethodModel m) {
        List<String> ops = new ArrayList<>();
        for (CodeElement e : m.code().orElseThrow()) {
            if (e instanceof FieldInstruction f && f.name().stringValue().matches("T\\d+")) {
                ops.add("getstatic " + f.name().stringValue());
            } else if (e instanceof InvokeInstruction i) {
                String n = i.name().stringValue();
                if (n.equals("fromMemorySegment") || n.equals("intoMemorySegment")
                        || (n.equals("cast") && i.owner().asInternalName().equals("java/lang/Class"))) {
                    ops.add(n);
                }
            } else if (e instanceof TypeCheckInstruction t) {
                String type = t.type().asInternalName();
                ops.add("checkcast " + type.substring(type.lastIndexOf('/') + 1));
            }
        }
        assertTrue(!ops.isEmpty(), m.methodName() + " moves no vectors");
        return ops;
    }
}
