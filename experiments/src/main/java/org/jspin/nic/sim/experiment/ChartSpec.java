package org.jspin.nic.sim.experiment;

/**
 * How one plot of a figure shows its table: x and y columns, one series per distinct value of the
 * series column (or one series), axis labels with units, and an optional horizontal reference line.
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
 * @param reference  the y of a horizontal reference line (NaN for none)
 * @param refLabel   what the reference line is
 */
public record ChartSpec(String file, String title, boolean bars, String x, String y, String series, String xLabel,
                        String yLabel, boolean logX, boolean logY, double reference, String refLabel) {
    /** @return a line chart over a numeric x */
    public static ChartSpec lines(String file, String title, String x, String y, String series, String xLabel,
                                  String yLabel, boolean logX) {
        return new ChartSpec(file, title, false, x, y, series, xLabel, yLabel, logX, false, Double.NaN, null);
    }

    /** @return a bar chart over categories */
    public static ChartSpec bars(String file, String title, String x, String y, String series, String xLabel,
                                 String yLabel, boolean logY) {
        return new ChartSpec(file, title, true, x, y, series, xLabel, yLabel, false, logY, Double.NaN, null);
    }

    /** @return this chart with a horizontal reference line */
    public ChartSpec withReference(double value, String label) {
        return new ChartSpec(file, title, bars, x, y, series, xLabel, yLabel, logX, logY, value, label);
    }
}
