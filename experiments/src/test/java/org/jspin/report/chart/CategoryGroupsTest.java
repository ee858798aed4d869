package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;
import org.jspin.nic.sim.experiment.Table;
import org.junit.jupiter.api.Test;

class CategoryGroupsTest {
    private static ChartPoints points() {
        Table t = Table.of(List.of("layout", "strategy", "speedup"), Set.of());
        t.add("nas_lu_a", "auto", 2.0);
        t.add("wrf_x", "auto", 30.0);
        t.add("nas_mg_b", "auto", 5.0);
        t.add("nas_mg_b", "seek", 0.5);
        t.add("wrf_y", "auto", 3.0);
        t.add("geometric mean", "auto", 4.0);
        return ChartPoints.of(t, ChartSpec.bars("f", "t", "layout", "speedup", "strategy", "layout", "x (x)", true));
    }

    @Test
    void verticalKeepsTheTablesOrder() {
        assertEquals(List.of(new CategoryGroups.Group("", List.of("nas_lu_a", "wrf_x", "nas_mg_b", "wrf_y",
                "geometric mean"))), CategoryGroups.of(points(), Arrangement.VERTICAL));
    }

    @Test
    void horizontalSortsByTheLargestValueOfEachCategory() {
        assertEquals(List.of(new CategoryGroups.Group("", List.of("wrf_x", "nas_mg_b", "geometric mean", "wrf_y",
                "nas_lu_a"))), CategoryGroups.of(points(), Arrangement.HORIZONTAL));
    }

    @Test
    void groupedPutsEachApplicationInAPanelInTableOrder() {
        assertEquals(List.of(new CategoryGroups.Group("nas", List.of("nas_mg_b", "nas_lu_a")),
                new CategoryGroups.Group("wrf", List.of("wrf_x", "wrf_y")),
                new CategoryGroups.Group("geometric mean", List.of("geometric mean"))),
                CategoryGroups.of(points(), Arrangement.GROUPED));
    }

    @Test
    void anApplicationIsTheNameBeforeItsFirstUnderscore() {
        assertEquals("specfem3d", CategoryGroups.application("specfem3d_cm_c1"));
        assertEquals("mean", CategoryGroups.application("mean"));
        assertEquals("_x", CategoryGroups.application("_x"));
    }
}
