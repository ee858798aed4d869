package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.json.LayoutSummary;
import org.jspin.datatype.kernel.Kernels;
import org.jspin.datatype.lower.CompiledType;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** Cases a code review found, each once wrong: bounds by the marker rule, overflow, strictness, kernels. */
class ReviewedEdgeCasesTest {

    @Test
    void explicitBoundsOfAStructMemberWinOverPlainMembers() {
        // the standard's sticky markers: resized sets lb 0 / ub 8, the plain double at 16 does not count
        Datatype t = Datatype.struct(new long[] {1, 1}, new long[] {0, 16},
                new Datatype[] {Datatype.resized(0, 8, Datatype.DOUBLE), Datatype.DOUBLE});
        assertEquals(0, t.lb());
        assertEquals(8, t.ub());
        assertEquals(0, t.trueLb());
        assertEquals(24, t.trueExtent());
        assertTrue(LayoutSummary.of(t, 2).endsWith("\"regions\":[[0,8],[16,8],[8,8],[24,8]]}"),
                LayoutSummary.of(t, 2));
    }

    @Test
    void anEmptyMemberAddsNothingToTheBounds() {
        Datatype t = Datatype.struct(new long[] {1, 1}, new long[] {0, 100},
                new Datatype[] {Datatype.INT, Datatype.contiguous(0, Datatype.INT)});
        assertEquals(4, t.extent());
        assertEquals(4, t.trueExtent());
    }

    @Test
    void aHugeStrideThatCannotMergeStillCommits() {
        Datatype t = DatatypeJson.parse("{\"hvector\":{\"count\":2,\"blocklength\":1,\"stride_bytes\":1,\"of\":"
                + "{\"hvector\":{\"count\":2,\"blocklength\":1,\"stride_bytes\":4611686018427387904,\"of\":\"byte\"}}}}");
        t.commit();
        assertTrue(LayoutSummary.of(t, 1).endsWith("\"regions\":[[0,1],[4611686018427387904,1],[1,1],"
                + "[4611686018427387905,1]]}"), LayoutSummary.of(t, 1));
    }

    @Test
    void aSingleBlockVectorIgnoresItsStride() {
        Datatype t = Datatype.vector(1, 2, 2_000_000_000_000_000_000L, Datatype.DOUBLE).commit();
        assertEquals(16, t.extent());
        assertEquals(0, Datatype.vector(0, 1, Long.MAX_VALUE, Datatype.DOUBLE).size());
    }

    @Test
    void aLayoutOnlyCompilationRefusesToMoveData() {
        Datatype t = Datatype.hvector(2, 1, 100, Datatype.vector(4, 1, 2, Datatype.INT));
        MpiException e = assertThrows(MpiException.class,
                () -> CompiledType.layoutOnly(t).cursor(1, MemorySegment.ofArray(new byte[256]), 0));
        assertEquals(ErrorClass.ERR_TYPE, e.errorClass());
    }

    @Test
    void jsonWithDuplicateKeysOrInexactNumbersIsRefused() {
        for (String json : new String[] {
                "{\"vector\":{\"count\":1,\"count\":3,\"blocklength\":1,\"stride\":1,\"of\":\"int\"}}",
                "{\"contiguous\":{\"count\":9007199254740993.0,\"of\":\"int\"}}"}) {
            MpiException e = assertThrows(MpiException.class, () -> DatatypeJson.parse(json), json);
            assertEquals(ErrorClass.ERR_ARG, e.errorClass(), json);
        }
        assertEquals(12, DatatypeJson.parse("{\"contiguous\":{\"count\":3.0,\"of\":\"int\"}}").size());
    }

    @Test
    void aClosedArenaIsAnErrorBeforeAnyCopy() {
        Datatype t = Datatype.vector(4, 1, 2, Datatype.INT).commit();
        MemorySegment typed;
        try (Arena a = Arena.ofConfined()) {
            typed = a.allocate(64);
        }
        MemorySegment packed = MemorySegment.ofArray(new byte[16]);
        MpiException e = assertThrows(MpiException.class, () -> t.cursor(1, typed).pack(packed, 0, 16));
        assertEquals(ErrorClass.ERR_BUFFER, e.errorClass());
    }

    @Test
    void commonShapesGetCompiledKernelsNotTheFallback() {
        // a code-generation bug would otherwise hide behind the (correct, slower) fallback kernels
        for (Datatype t : new Datatype[] {Datatype.vector(8, 1, 3, Datatype.DOUBLE),
                Datatype.vector(8, 8, 16, Datatype.DOUBLE), Datatype.vector(8, 4, 8, Datatype.BYTE)}) {
            VectorNode v = (VectorNode) t.commit().compiled().root();
            assertTrue(Kernels.blockKernel(v.kernel()).getClass().isHidden(), () -> t + " got " + v.kernel());
        }
    }
}
