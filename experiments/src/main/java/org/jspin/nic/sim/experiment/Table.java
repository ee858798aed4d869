package org.jspin.nic.sim.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A sweep's results as plain data: named columns and rows of numbers or strings. Columns named in
 * {@link #measured} hold wall-clock figures measured on this machine (they differ from run to run);
 * every other column is simulated or computed, identical for the same configuration.
 *
 * @param columns  column names, with units where they have one ({@code gbps}, {@code ns}, {@code bytes})
 * @param rows     one list per row, in column order
 * @param measured columns measured on this machine, iterated in column order
 */
public record Table(List<String> columns, List<List<Object>> rows, Set<String> measured) {
    /** Keeps {@code measured} in column order, so that whatever lists them reads the same in every run. */
    public Table {
        for (String m : measured) {
            if (!columns.contains(m)) {
                throw new IllegalArgumentException("measured column " + m + " is not one of " + columns);
            }
        }
        measured = Collections.unmodifiableSet(new LinkedHashSet<>(columns.stream().filter(measured::contains).toList()));
    }

    /** @return an empty table with these columns, of which {@code measured} are measured */
    public static Table of(List<String> columns, Set<String> measured) {
        return new Table(List.copyOf(columns), new ArrayList<>(), measured);
    }

    /** Adds a row (as many values as columns). */
    public void add(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("row of " + values.length + " values for " + columns.size() + " columns");
        }
        rows.add(List.of(values));
    }

    /** @return the index of column {@code name} */
    public int column(String name) {
        int i = columns.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + name + " in " + columns);
        }
        return i;
    }

    /** @return the rows whose column {@code name} holds {@code value} */
    public List<List<Object>> where(String name, Object value) {
        int i = column(name);
        return rows.stream().filter(r -> value.equals(r.get(i))).toList();
    }

    /** @return column {@code name} of {@code row} as a number */
    public double number(List<Object> row, String name) {
        return ((Number) row.get(column(name))).doubleValue();
    }
}
