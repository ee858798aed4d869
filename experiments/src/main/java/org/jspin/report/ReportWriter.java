package org.jspin.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Figure;
import org.jspin.nic.sim.experiment.Figures;
import org.jspin.nic.sim.experiment.Table;
import org.jspin.nic.sim.experiment.Verdict;
import org.jspin.report.chart.Charts;

/**
 * Writes the simulator's figures into a directory: one CSV per figure (measured columns named
 * {@code *_measured}), one PNG per plot (axes labelled with units, the timing preset in the title), and
 * {@code REPORT.md}: a verdict on every claim with the numbers behind it, the parameters, what was
 * measured on this machine, and each figure's data as a table.
 */
public final class ReportWriter {
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
                    Charts.render(f.table(), c, result.preset()).save(png);
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
            Charts.render(t, c, preset).save(png);
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
