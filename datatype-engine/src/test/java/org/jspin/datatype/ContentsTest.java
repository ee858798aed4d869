package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;

import org.jspin.datatype.testing.Named;
import org.junit.jupiter.api.Test;

/**
 * {@code envelope()} and {@code contents()} of every constructor, in the layout of MPI 4.0's
 * MPI_Type_get_envelope / MPI_Type_get_contents table (integers, addresses, datatypes).
 */
class ContentsTest {
    private static final Datatype INT = Named.INT;
    private static final Datatype DOUBLE = Named.DOUBLE;

    private static void assertContents(Datatype t, Combiner combiner, long[] integers, long[] addresses,
            List<Datatype> types) {
        Contents c = t.contents();
        assertEquals(combiner, t.combiner());
        assertEquals(combiner, c.combiner());
        assertArrayEquals(integers, c.integers(), "integers");
        assertArrayEquals(addresses, c.addresses(), "addresses");
        assertEquals(types.size(), c.datatypes().size(), "datatypes");
        for (int i = 0; i < types.size(); i++) {
            assertSame(types.get(i), c.datatypes().get(i), "datatype " + i + " is the very argument");
        }
        assertEquals(new Envelope(combiner, integers.length, addresses.length, types.size()), t.envelope());
        assertEquals(c.datatypes(), t.components());
    }

    @Test
    void named() {
        for (Datatype n : Named.ALL) {
            assertContents(n, Combiner.NAMED, new long[0], new long[0], List.of());
        }
    }

    @Test
    void dup() {
        Datatype v = Datatype.vector(2, 1, 3, INT);
        assertContents(v.dup(), Combiner.DUP, new long[0], new long[0], List.of(v));
    }

    @Test
    void contiguous() {
        assertContents(Datatype.contiguous(5, INT), Combiner.CONTIGUOUS, new long[] {5}, new long[0], List.of(INT));
    }

    @Test
    void vectorCountBlocklengthStrideAreIntegers() {
        assertContents(Datatype.vector(4, 2, -3, INT), Combiner.VECTOR, new long[] {4, 2, -3}, new long[0],
                List.of(INT));
    }

    @Test
    void hvectorStrideIsAnAddress() {
        assertContents(Datatype.hvector(4, 2, -24, INT), Combiner.HVECTOR, new long[] {4, 2}, new long[] {-24},
                List.of(INT));
    }

    @Test
    void indexedIsCountBlocklengthsDisplacements() {
        assertContents(Datatype.indexed(new long[] {2, 0, 1}, new long[] {5, -1, 9}, INT), Combiner.INDEXED,
                new long[] {3, 2, 0, 1, 5, -1, 9}, new long[0], List.of(INT));
    }

    @Test
    void hindexedDisplacementsAreAddresses() {
        assertContents(Datatype.hindexed(new long[] {2, 1}, new long[] {40, -8}, INT), Combiner.HINDEXED,
                new long[] {2, 2, 1}, new long[] {40, -8}, List.of(INT));
    }

    @Test
    void indexedBlockIsCountBlocklengthDisplacements() {
        assertContents(Datatype.indexedBlock(3, new long[] {0, 7, -2}, INT), Combiner.INDEXED_BLOCK,
                new long[] {3, 3, 0, 7, -2}, new long[0], List.of(INT));
    }

    @Test
    void hindexedBlockIsCountBlocklengthThenAddresses() {
        assertContents(Datatype.hindexedBlock(3, new long[] {0, 70}, INT), Combiner.HINDEXED_BLOCK,
                new long[] {2, 3}, new long[] {0, 70}, List.of(INT));
    }

    @Test
    void structIsCountBlocklengthsThenAddressesThenTypes() {
        Datatype v = Datatype.vector(2, 1, 2, DOUBLE);
        assertContents(Datatype.struct(new long[] {1, 3}, new long[] {-8, 16}, new Datatype[] {v, INT}),
                Combiner.STRUCT, new long[] {2, 1, 3}, new long[] {-8, 16}, List.of(v, INT));
    }

    @Test
    void subarrayIsNdimsSizesSubsizesStartsOrder() {
        assertContents(Datatype.subarray(new long[] {4, 5}, new long[] {2, 3}, new long[] {1, 2}, Order.C, INT),
                Combiner.SUBARRAY, new long[] {2, 4, 5, 2, 3, 1, 2, Order.C.ordinal()}, new long[0], List.of(INT));
        assertContents(Datatype.subarray(new long[] {6}, new long[] {1}, new long[] {5}, Order.FORTRAN, INT),
                Combiner.SUBARRAY, new long[] {1, 6, 1, 5, Order.FORTRAN.ordinal()}, new long[0], List.of(INT));
    }

    @Test
    void resizedLbAndExtentAreAddresses() {
        assertContents(Datatype.resized(-4, 16, INT), Combiner.RESIZED, new long[0], new long[] {-4, 16},
                List.of(INT));
    }

    @Test
    void contentsCannotChangeTheType() {
        long[] bls = {1, 2};
        long[] disps = {0, 8};
        Datatype t = Datatype.hindexed(bls, disps, INT);
        long ub = t.ub();
        // neither the caller's arrays nor the returned ones are the type's own
        bls[1] = 100;
        disps[1] = 1000;
        t.contents().integers()[2] = 100;
        t.contents().addresses()[1] = 1000;
        assertArrayEquals(new long[] {2, 1, 2}, t.contents().integers());
        assertArrayEquals(new long[] {0, 8}, t.contents().addresses());
        assertEquals(ub, t.ub());
    }
}
