package org.jspin.report.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Stroke;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jspin.nic.sim.experiment.ChartSpec;

/** The look every chart shares: colours a reader tells apart, fonts large enough to read, plain log ticks. */
final class ChartStyle {
    /** Okabe and Ito's colour-blind safe palette (Color Universal Design, 2008), its yellow left out: unreadable on white. */
    private static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
            new Color(0xE69F00), new Color(0xCC79A7), new Color(0x56B4E9), Color.BLACK, Color.GRAY};
    /** Dashes that keep a line visible where it runs over another. */
    private static final float[][] DASHES = {null, {10, 5}, {3, 4}, {12, 4, 3, 4}};
    static final Font TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font LABELS = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 18);
    private static final Pattern UNIT = Pattern.compile("\\(([^()]+)\\)\\s*$");

    private ChartStyle() {
    }

    static Paint paint(int series) {
        return PALETTE[series % PALETTE.length];
    }

    static Stroke stroke(int series) {
        float[] dash = DASHES[series % DASHES.length];
        return new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, dash, 0);
    }

    static void fonts(Axis axis) {
        axis.setTickLabelFont(TICKS);
        axis.setLabelFont(LABELS);
    }

    /**
     * @return a log axis over whole powers of {@code base} from below {@code min} to above {@code max} and
     *     {@code pad} of a power further, ticked at each power and labelled with plain numbers (0.1, 1, 10), not
     *     exponents
     */
    static LogAxis logAxis(String label, int base, double min, double max, double pad) {
        LogAxis axis = new LogAxis(label);
        axis.setBase(base);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.####", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        double lo = Math.pow(base, Math.floor(Math.log(min) / Math.log(base)));
        double hi = Math.pow(base, Math.ceil(Math.log(max) / Math.log(base)));
        // at least a hair beyond the powers, so rounding cannot drop the ticks at the ends
        double margin = Math.pow(base, Math.max(pad, 0.001));
        axis.setRange(lo / margin, (hi > lo ? hi : lo * base) * margin);
        axis.setMinorTickMarksVisible(true);
        fonts(axis);
        return axis;
    }

    /** @return the reference line of {@code c}, labelled with its value and unit, readable where it is drawn */
    static ValueMarker marker(ChartSpec c, boolean vertical) {
        ValueMarker m = new ValueMarker(c.reference(), Color.DARK_GRAY, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
        String unit = unit(c.yLabel());
        String value = ChartPoints.text(c.reference());
        m.setLabel(c.refLabel() + ": " + value + ("x".equals(unit) ? "x" : unit.isEmpty() ? "" : " " + unit));
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        m.setLabelPaint(Color.DARK_GRAY);
        m.setLabelBackgroundColor(new Color(255, 255, 255, 200)); // the bars show through, the text stays legible
        if (vertical) { // a vertical line: the label to its right, at the top
            m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        } else { // a horizontal line: the label above it, at the right
            m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        }
        return m;
    }

    /** @return the unit an axis label ends with in parentheses ("throughput (Gbit/s)" has Gbit/s), or "" */
    static String unit(String label) {
        Matcher m = UNIT.matcher(label == null ? "" : label);
        return m.find() ? m.group(1) : "";
    }

    /** Title, legend and background: the same on every chart. */
    static void finish(JFreeChart chart, boolean legend) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(4, 8, 4, 28)); // room for the last tick label of the value axis
        chart.getTitle().setFont(TITLE);
        LegendTitle l = chart.getLegend();
        if (l != null) {
            l.setItemFont(TICKS);
            l.setVisible(legend);
        }
    }
}
