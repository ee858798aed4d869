package org.jspin.report.chart;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Table;

/**
 * The points one chart draws, read from a figure's table as its spec says: rows selected, series named,
 * a y taken from its measured twin ({@code y_measured}) where the y is empty.
 *
 * @param points the points in table order; NaN values left out, infinite ones kept
 * @param series the series names in order of first appearance
 */
public record ChartPoints(List<Point> points, List<String> series) {
    private static final Pattern FIELD = Pattern.compile("\\{([^}]+)}");

    /**
     * One value of one series.
     *
     * @param series   its series' name
     * @param category the x as text (a bar's category)
     * @param x        the x as a number (NaN where it is not one)
     * @param value    the y
     */
    public record Point(String series, String category, double x, double value) {
    }

    /** @return the points {@code c} draws of {@code t} */
    public static ChartPoints of(Table t, ChartSpec c) {
        ChartSpec.RowSelection sel = c.rows();
        List<String> ys = sel.yColumns().isEmpty() ? List.of(c.y()) : sel.yColumns();
        List<Point> points = new ArrayList<>();
        Set<String> series = new LinkedHashSet<>();
        for (List<Object> row : t.rows()) {
            if (sel.whereColumn() != null && !matches(row.get(t.column(sel.whereColumn())), sel.whereValue())) {
                continue;
            }
            Object xv = row.get(t.column(c.x()));
            for (int i = 0; i < ys.size(); i++) {
                String y = ys.get(i);
                double v = t.number(row, y);
                boolean measured = false;
                if (Double.isNaN(v) && t.columns().contains(y + "_measured")) {
                    v = t.number(row, y + "_measured");
                    measured = true;
                }
                if (Double.isNaN(v)) {
                    continue;
                }
                String name = sel.yColumns().isEmpty() ? seriesName(t, row, c, measured) : sel.yNames().get(i);
                series.add(name);
                points.add(new Point(name, text(xv), xv instanceof Number n ? n.doubleValue() : Double.NaN, v));
            }
        }
        return new ChartPoints(List.copyOf(points), List.copyOf(series));
    }

    /** @return a value as a person reads it: whole numbers without a fraction, others to four figures */
    public static String text(Object v) {
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return String.format(Locale.ROOT, "%.4g", d);
        }
        return String.valueOf(v);
    }

    private static String seriesName(Table t, List<Object> row, ChartSpec c, boolean measured) {
        String name;
        if (c.rows().seriesName() != null) {
            Matcher m = FIELD.matcher(c.rows().seriesName());
            StringBuilder s = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(s, Matcher.quoteReplacement(text(row.get(t.column(m.group(1))))));
            }
            name = m.appendTail(s).toString();
        } else if (c.series() != null) {
            name = text(row.get(t.column(c.series())));
        } else {
            return measured ? "measured on this machine" : "simulated or modelled";
        }
        // a name that says it is measured already needs no second mark
        return measured && !name.contains("measured") ? name + " (measured)" : name;
    }

    private static boolean matches(Object cell, Object wanted) {
        if (cell instanceof Number a && wanted instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        return Objects.equals(String.valueOf(cell), String.valueOf(wanted));
    }
}
