package org.jspin.nic.sim.experiment;

import java.util.List;

/**
 * How one plot of a figure shows its table: x and y columns, one series per distinct value of the
 * series column (or one series), axis labels with units, and an optional reference line.
 *
 * @param file       the PNG's file name, without extension
 * @param title      the plot's title (the renderer adds the parameter preset)
 * @param bars       bars per category (x as categories) rather than lines over a numeric x
 * @param x          the x column
 * @param y          the y column
 * @param series     the column whose values name the series, or null for one series
 * @param xLabel     the x axis label, with its unit
 * @param yLabel     the y axis label, with its unit
 * @param logX       a logarithmic x axis
 * @param logY       a logarithmic y axis
 * @param reference  the y of a reference line (NaN for none)
 * @param refLabel   what the reference line is
 * @param layout     how the bars or lines are arranged
 * @param rows       which rows are drawn and how their series are named
 */
public record ChartSpec(String file, String title, boolean bars, String x, String y, String series, String xLabel,
                        String yLabel, boolean logX, boolean logY, double reference, String refLabel, Arrangement layout,
                        RowSelection rows) {
    /** How a chart arranges its bars or lines. */
    public enum Arrangement {
        /** Bars: categories along x in table order, bars upward. Lines: every series in one plot. */
        VERTICAL,
        /** Categories down the left, sorted by their largest value, bars rightward; the image grows with them. */
        HORIZONTAL,
        /** As {@link #HORIZONTAL}, in one panel per application (the category's name before its first '_'). */
        GROUPED,
        /** Lines: a panel per series, one above the other over the same x, each with its own y range. */
        PANELS
    }

    /**
     * Which rows a chart draws and how it names their series.
     *
     * @param whereColumn a column that must hold {@code whereValue}, or null for every row
     * @param whereValue  the value it must hold
     * @param seriesName  a template naming a row's series from its columns ({@code "{strategy}, {block_bytes} B"}),
     *                    or null for the series column's value
     * @param yColumns    several y columns drawn as one series each (then {@code y} is the first), or empty
     * @param yNames      the series name of each of {@code yColumns}
     */
    public record RowSelection(String whereColumn, Object whereValue, String seriesName, List<String> yColumns,
                               List<String> yNames) {
        /** Every row, series named by the series column. */
        public static final RowSelection ALL = new RowSelection(null, null, null, List.of(), List.of());

        /** Checks that each y column has a name. */
        public RowSelection {
            yColumns = List.copyOf(yColumns);
            yNames = List.copyOf(yNames);
            if (yColumns.size() != yNames.size()) {
                throw new IllegalArgumentException("y columns " + yColumns + " and their names " + yNames
                        + " differ in number");
            }
        }
    }

    /** @return a line chart over a numeric x */
    public static ChartSpec lines(String file, String title, String x, String y, String series, String xLabel,
                                  String yLabel, boolean logX) {
        return new ChartSpec(file, title, false, x, y, series, xLabel, yLabel, logX, false, Double.NaN, null,
                Arrangement.VERTICAL, RowSelection.ALL);
    }

    /** @return a bar chart over categories */
    public static ChartSpec bars(String file, String title, String x, String y, String series, String xLabel,
                                 String yLabel, boolean logY) {
        return new ChartSpec(file, title, true, x, y, series, xLabel, yLabel, false, logY, Double.NaN, null,
                Arrangement.VERTICAL, RowSelection.ALL);
    }

    /** @return this chart with a reference line at {@code value} on the value axis */
    public ChartSpec withReference(double value, String label) {
        return new ChartSpec(file, title, bars, x, y, series, xLabel, yLabel, logX, logY, value, label, layout, rows);
    }

    /** @return this chart arranged as {@code how} */
    public ChartSpec laidOut(Arrangement how) {
        return new ChartSpec(file, title, bars, x, y, series, xLabel, yLabel, logX, logY, reference, refLabel, how,
                rows);
    }

    /** @return this chart drawing only the rows whose {@code column} holds {@code value} */
    public ChartSpec where(String column, Object value) {
        return withRows(new RowSelection(column, value, rows.seriesName(), rows.yColumns(), rows.yNames()));
    }

    /** @return this chart naming each row's series by {@code template}: {@code {column}} stands for its value */
    public ChartSpec seriesNamed(String template) {
        return withRows(new RowSelection(rows.whereColumn(), rows.whereValue(), template, rows.yColumns(),
                rows.yNames()));
    }

    /** @return this chart drawing each of {@code columns} as a series named by the matching {@code names} */
    public ChartSpec yColumns(List<String> columns, List<String> names) {
        return withRows(new RowSelection(rows.whereColumn(), rows.whereValue(), rows.seriesName(), columns, names));
    }

    private ChartSpec withRows(RowSelection r) {
        return new ChartSpec(file, title, bars, x, y, series, xLabel, yLabel, logX, logY, reference, refLabel, layout,
                r);
    }
}
