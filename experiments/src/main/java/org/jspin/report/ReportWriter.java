package org.jspin.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.DecimalFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Figure;
import org.jspin.nic.sim.experiment.Figures;
import org.jspin.nic.sim.experiment.Table;
import org.jspin.nic.sim.experiment.Verdict;

/**
 * Writes the simulator's figures into a directory: one CSV per figure (measured columns named
 * {@code *_measured}), one PNG per plot (axes labelled with units, the timing preset in the title), and
 * {@code REPORT.md}: a verdict on every claim with the numbers behind it, the parameters, what was
 * measured on this machine, and each figure's data as a table.
 */
public final class ReportWriter {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 620;

    private ReportWriter() {
    }

    /**
     * Writes everything of {@code result} into {@code dir} (created if missing).
     *
     * @param parameters the configuration, as printed by {@code jspin sim --print-config}
     * @return the files written
     */
    public static List<Path> write(Figures.Result result, Map<String, String> parameters, Path dir) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (Figure f : result.figures()) {
                Path csv = dir.resolve(f.id() + ".csv");
                Files.writeString(csv, csv(f.table()));
                written.add(csv);
                for (ChartSpec c : f.charts()) {
                    Path png = dir.resolve(c.file() + ".png");
                    ChartUtils.saveChartAsPNG(png.toFile(), chart(f.table(), c, result.preset()), WIDTH, HEIGHT);
                    written.add(png);
                }
            }
            Path md = dir.resolve("REPORT.md");
            Files.writeString(md, markdown(result, parameters));
            written.add(md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the figures to " + dir, e);
        }
        return written;
    }

    /**
     * Writes one plot of {@code t} as {@code <file>.png} into {@code dir}.
     *
     * @return the file written
     */
    public static Path chart(Table t, ChartSpec c, String preset, Path dir) {
        Path png = dir.resolve(c.file() + ".png");
        try {
            Files.createDirectories(dir);
            ChartUtils.saveChartAsPNG(png.toFile(), chart(t, c, preset), WIDTH, HEIGHT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
        return png;
    }

    /** @return the table as CSV: a header line, then one line per row; numbers in a fixed, locale-free format */
    public static String csv(Table t) {
        StringBuilder s = new StringBuilder(String.join(",", t.columns())).append('\n');
        for (List<Object> row : t.rows()) {
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) {
                    s.append(',');
                }
                s.append(cell(row.get(i)));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String cell(Object v) {
        if (v instanceof Double d) {
            if (d.isNaN()) {
                return "";
            }
            if (d.isInfinite()) {
                return d > 0 ? "inf" : "-inf";
            }
            return String.format(Locale.ROOT, "%.6g", d);
        }
        if (v instanceof Float f) {
            return cell(f.doubleValue());
        }
        String s = String.valueOf(v);
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /** A row's y: the y column, or its measured twin ({@code y_measured}) where the y is empty. */
    private static double y(Table t, List<Object> row, String y, boolean[] measured) {
        double v = t.number(row, y);
        measured[0] = false;
        if (Double.isNaN(v) && t.columns().contains(y + "_measured")) {
            v = t.number(row, y + "_measured");
            measured[0] = true;
        }
        return v;
    }

    private static JFreeChart chart(Table t, ChartSpec c, String preset) {
        String title = c.title() + "  [" + preset + " preset]";
        boolean[] measured = new boolean[1];
        JFreeChart chart;
        if (c.bars()) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            for (List<Object> row : t.rows()) {
                double v = y(t, row, c.y(), measured);
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    continue;
                }
                String series = c.series() == null ? c.y() : String.valueOf(row.get(t.column(c.series())));
                data.addValue(v, series + (measured[0] ? " (measured)" : ""), String.valueOf(row.get(t.column(c.x()))));
            }
            chart = ChartFactory.createBarChart(title, c.xLabel(), c.yLabel(), data, PlotOrientation.VERTICAL,
                    c.series() != null, false, false);
            CategoryPlot plot = chart.getCategoryPlot();
            plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
            plot.setBackgroundPaint(Color.WHITE);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
            if (c.logY()) {
                LogAxis axis = new LogAxis(c.yLabel());
                axis.setSmallestValue(1e-3);
                plot.setRangeAxis(axis);
            }
            if (!Double.isNaN(c.reference())) {
                plot.addRangeMarker(marker(c));
            }
        } else {
            Map<String, XYSeries> series = new LinkedHashMap<>();
            for (List<Object> row : t.rows()) {
                double v = y(t, row, c.y(), measured);
                double x = t.number(row, c.x());
                if (Double.isNaN(v) || Double.isNaN(x) || Double.isInfinite(v)) {
                    continue;
                }
                String name = (c.series() == null ? c.y() : String.valueOf(row.get(t.column(c.series()))))
                        + (measured[0] ? " (measured)" : "");
                series.computeIfAbsent(name, k -> new XYSeries(k, true, true)).addOrUpdate(x, v);
            }
            XYSeriesCollection data = new XYSeriesCollection();
            series.values().forEach(data::addSeries);
            chart = ChartFactory.createXYLineChart(title, c.xLabel(), c.yLabel(), data, PlotOrientation.VERTICAL, true,
                    false, false);
            XYPlot plot = chart.getXYPlot();
            if (c.logX()) {
                LogAxis axis = new LogAxis(c.xLabel());
                axis.setBase(2);
                axis.setTickUnit(new NumberTickUnit(1)); // one tick per power of two
                axis.setNumberFormatOverride(new DecimalFormat("0"));
                plot.setDomainAxis(axis);
            }
            plot.setBackgroundPaint(Color.WHITE);
            plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
            XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
            for (int i = 0; i < data.getSeriesCount(); i++) {
                lines.setSeriesStroke(i, new BasicStroke(2f));
            }
            plot.setRenderer(lines);
            if (!Double.isNaN(c.reference())) {
                plot.addRangeMarker(marker(c));
            }
        }
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static ValueMarker marker(ChartSpec c) {
        ValueMarker m = new ValueMarker(c.reference(), Color.DARK_GRAY, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
        m.setLabel(c.refLabel());
        return m;
    }

    private static String markdown(Figures.Result r, Map<String, String> parameters) {
        StringBuilder s = new StringBuilder();
        s.append("# jspin figures: the SC19 sPIN datatype paper, reproduced and questioned\n\n");
        s.append("Written by `jspin figures`. Every number is simulated with the parameters below unless its column"
                + " says `measured`: those are our own engine's host unpack, timed on the machine that ran this (they"
                + " change from run to run; everything else is identical for the same parameters).\n\n");
        s.append(String.format(Locale.ROOT, "Simulator speed (measured): %,d NIC packets received (each also sent"
                + " through a simulated sender NIC) in %.1f s of simulation, %,.0f packets/s; the whole run took %.1f s,"
                + " host measurements included.%n%n", r.packets(), r.simSeconds(),
                r.packets() / Math.max(1e-9, r.simSeconds()), r.wallSeconds()));
        s.append("## Verdicts\n\n| claim | verdict | evidence |\n|---|---|---|\n");
        for (Verdict v : r.verdicts()) {
            s.append("| ").append(esc(v.claim())).append(" | ").append(esc(v.verdict())).append(" | ")
                    .append(esc(v.evidence())).append(" |\n");
        }
        s.append("\n## Parameters (`").append(r.preset()).append("` preset)\n\n| parameter | value (source) |\n|---|---|\n");
        parameters.forEach((k, v) -> s.append("| ").append(k).append(" | ").append(esc(v)).append(" |\n"));
        for (Figure f : r.figures()) {
            s.append("\n## ").append(f.title()).append("\n\n").append(f.notes()).append("\n\n");
            for (ChartSpec c : f.charts()) {
                s.append("![").append(c.title()).append("](").append(c.file()).append(".png)\n\n");
            }
            s.append("Data: [`").append(f.id()).append(".csv`](").append(f.id()).append(".csv)");
            if (!f.table().measured().isEmpty()) {
                s.append(" (measured on this machine: ").append(String.join(", ", f.table().measured())).append(')');
            }
            s.append("\n\n");
            s.append(table(f.table(), 60));
        }
        return s.toString();
    }

    private static String table(Table t, int maxRows) {
        StringBuilder s = new StringBuilder("| ").append(String.join(" | ", t.columns())).append(" |\n|");
        s.append("---|".repeat(t.columns().size())).append('\n');
        int n = 0;
        for (List<Object> row : t.rows()) {
            if (++n > maxRows) {
                s.append("\n(").append(t.rows().size() - maxRows).append(" more rows in the CSV)\n");
                break;
            }
            s.append("| ");
            for (Object v : row) {
                s.append(v instanceof Double d ? (d.isNaN() ? "" : String.format(Locale.ROOT, "%.4g", d)) : v)
                        .append(" | ");
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String esc(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
