package org.jspin.report.chart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;

/** The order in which a bar chart shows its categories, in groups (one group unless grouped by application). */
public final class CategoryGroups {
    private CategoryGroups() {
    }

    /**
     * One panel of categories.
     *
     * @param name       the application, or empty for the only group
     * @param categories its categories, in drawing order
     */
    public record Group(String name, List<String> categories) {
    }

    /**
     * @return the categories of {@code points}: in table order (bars upward), or sorted by
     *     their largest value, largest first (ties in table order), in one group or one per application (the
     *     applications in table order, so a summary row written last stays last); one empty group for no points
     */
    public static List<Group> of(ChartPoints points, Arrangement layout) {
        Map<String, Double> best = new LinkedHashMap<>();
        for (ChartPoints.Point p : points.points()) {
            best.merge(p.category(), p.value(), Math::max);
        }
        List<String> order = new ArrayList<>(best.keySet());
        if (best.isEmpty() || layout != Arrangement.HORIZONTAL && layout != Arrangement.GROUPED) {
            return List.of(new Group("", order));
        }
        order.sort(Comparator.comparingDouble((String k) -> best.get(k)).reversed()); // stable: ties keep table order
        if (layout == Arrangement.HORIZONTAL) {
            return List.of(new Group("", order));
        }
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String k : best.keySet()) {
            groups.putIfAbsent(application(k), new ArrayList<>());
        }
        for (String k : order) {
            groups.get(application(k)).add(k);
        }
        List<Group> result = new ArrayList<>();
        groups.forEach((name, ks) -> result.add(new Group(name, List.copyOf(ks))));
        return result;
    }

    /** @return the application a layout's name belongs to: its text before the first '_', or all of it */
    public static String application(String category) {
        int cut = category.indexOf('_');
        return cut > 0 ? category.substring(0, cut) : category;
    }
}
