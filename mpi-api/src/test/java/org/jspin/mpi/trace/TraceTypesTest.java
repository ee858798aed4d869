package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.jspin.datatype.Datatype;
import org.junit.jupiter.api.Test;

class TraceTypesTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TraceWriter out = new TraceWriter(new TraceBuffer(bytes, 1 << 20), "t");
    private final TraceTypes types = new TraceTypes(out);

    @Test
    void declaresEachDescriptionOnceWithIdsInOrderOfFirstUse() {
        Datatype a = Datatype.vector(3, 1, 2, Datatype.INT).commit();
        Datatype sameAsA = Datatype.vector(3, 1, 2, Datatype.INT).commit();
        assertEquals(1, types.idOf(Datatype.DOUBLE));
        assertEquals(2, types.idOf(a));
        assertEquals(1, types.idOf(Datatype.DOUBLE));
        assertEquals(2, types.idOf(sameAsA));
        assertEquals(2, types.idOf(a));
        assertEquals(3, types.idOf(Datatype.BYTE));
        out.drain();
        assertEquals("""
                type 1 "double"
                type 2 {"vector":{"count":3,"blocklength":1,"stride":2,"of":"int"}}
                type 3 "byte"
                """, bytes.toString(StandardCharsets.UTF_8));
    }
}
