package org.jspin.nic.sim.experiment;

import java.util.List;

/**
 * One figure: its data (written as {@code <id>.csv}) and its plots.
 *
 * @param id     file name stem, e.g. {@code fig08-vector-throughput}
 * @param title  what it shows, and which of the paper's figures it reproduces
 * @param table  the data
 * @param charts the plots of the data
 * @param notes  what the reader must know (parameters, what is a model, what was measured)
 */
public record Figure(String id, String title, Table table, List<ChartSpec> charts, String notes) {
}
