package org.jspin.datatype.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.Region;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.json.LayoutSummary;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypeMapOracle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The engine's flattening and bounds against the naive type-map interpreter, on random types. */
class RegionsPropertyTest {

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("org.jspin.datatype.property.Seeds#seeds")
    void regionsAreTheMergedTypeMap(long seed) {
        TypeCase c = Seeds.get(seed);
        List<Region> expect = c.message().regions();
        assertEquals(expect, viaIterator(c.type().regions(c.count())), () -> "regions(count), " + c);
        // a fresh dup is never committed, so this also covers regions() of an uncommitted type
        assertEquals(expect, viaAdvance(c.type().dup().regions(c.count())), () -> "regions of a dup, " + c);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("org.jspin.datatype.property.Seeds#seeds")
    void theDenseRunIsTheOneMergedRegionIfThereIsOnlyOne(long seed) {
        TypeCase c = Seeds.get(seed);
        List<Region> regions = c.message().regions();
        long expect = regions.isEmpty() ? 0 : regions.size() == 1 ? regions.get(0).offset() : -1;
        Datatype t = c.type().dup().commit();
        assertEquals(expect, t.compiled().denseRun(c.count()), () -> "denseRun(count), " + c);
        assertEquals(expect, t.compiled().denseRun(c.count()), () -> "denseRun(count) again (cached), " + c);
        if (c.count() > 1) {
            List<Region> one = viaIterator(t.regions(1));
            long single = one.size() == 1 ? one.get(0).offset() : one.isEmpty() ? 0 : -1;
            assertEquals(single, t.compiled().denseRun(1), () -> "denseRun(1) after another count, " + c);
        }
    }

    @org.junit.jupiter.api.Test
    void denseRunsOfSimpleTypes() {
        Datatype contiguous = Datatype.contiguous(10, Datatype.INT).commit();
        assertEquals(0, contiguous.compiled().denseRun(3));
        Datatype gapless = Datatype.vector(4, 2, 2, Datatype.DOUBLE).commit(); // stride = block
        assertEquals(0, gapless.compiled().denseRun(5));
        Datatype strided = Datatype.vector(4, 2, 3, Datatype.DOUBLE).commit();
        assertEquals(-1, strided.compiled().denseRun(1));
        Datatype shifted = Datatype.resized(-8, 24, Datatype.hindexed(new long[] {2}, new long[] {8}, Datatype.DOUBLE))
                .commit(); // 16 bytes at 8, extent 24: one element is a run, two are not
        assertEquals(8, shifted.compiled().denseRun(1));
        assertEquals(-1, shifted.compiled().denseRun(2));
        Datatype backwards = Datatype.hindexed(new long[] {1, 1}, new long[] {8, 0}, Datatype.DOUBLE).commit();
        assertEquals(-1, backwards.compiled().denseRun(1), "contiguous bytes, but not in type-map order");
        assertEquals(0, strided.compiled().denseRun(0), "an empty message");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("org.jspin.datatype.property.Seeds#seeds")
    void boundsAreThoseOfTheTypeMap(long seed) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type();
        TypeMapOracle.Expected x = c.expected();
        assertEquals(x.size(), t.size(), () -> "size, " + c);
        assertEquals(c.packedSize(), t.packSize(c.count()), () -> "packSize(count), " + c);
        assertEquals(x.lb(), t.lb(), () -> "lb, " + c);
        assertEquals(x.ub(), t.ub(), () -> "ub, " + c);
        assertEquals(x.extent(), t.extent(), () -> "extent, " + c);
        assertEquals(x.trueLb(), t.trueLb(), () -> "true lb, " + c);
        assertEquals(x.trueUb() - x.trueLb(), t.trueExtent(), () -> "true extent, " + c);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("org.jspin.datatype.property.Seeds#seeds")
    void jsonRoundTripKeepsTheLayout(long seed) {
        TypeCase c = Seeds.get(seed);
        String json = DatatypeJson.write(c.type());
        Datatype back = DatatypeJson.parse(json);
        assertEquals(json, DatatypeJson.write(back), () -> "write(parse(write(t))), " + c);
        assertEquals(LayoutSummary.of(c.type(), c.count()), LayoutSummary.of(back, c.count()),
                () -> "layout summary after a JSON round trip, " + c);
    }

    private static List<Region> viaIterator(RegionIterator it) {
        List<Region> out = new ArrayList<>();
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    private static List<Region> viaAdvance(RegionIterator it) {
        List<Region> out = new ArrayList<>();
        while (it.advance()) {
            out.add(new Region(it.offset(), it.length()));
        }
        assertFalse(it.advance(), "advance() stays false at the end");
        return out;
    }
}
