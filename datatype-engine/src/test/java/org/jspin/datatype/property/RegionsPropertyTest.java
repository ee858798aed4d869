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
