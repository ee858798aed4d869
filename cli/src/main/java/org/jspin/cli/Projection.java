package org.jspin.cli;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.examples.Example;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.experiment.IterationTrace;
import org.jspin.nic.sim.experiment.Table;
import org.jspin.replay.NicCatalog;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.report.IterationTime;
import org.jspin.replay.trace.TraceReader;

import picocli.CommandLine;

/**
 * The headline of {@code jspin demo} and {@code jspin compare}: the program's time per iteration
 * projected on host NICs and on sPIN NICs ({@code jspin project}'s LogGOPS replay, with its defaults),
 * at the run's rank count from a trace of the run itself, and at more nodes from a trace of the same
 * program on that many thread ranks of this JVM. Compute in a trace is thread CPU time measured on
 * this machine; everything the replay adds is simulated.
 */
final class Projection {
    /** At most this many iterations in a trace on thread ranks: a median of 20, in seconds of tracing. */
    static final int THREAD_ITERATIONS = 20;
    /** Ranks of the untraced warm-up run before a trace on thread ranks: this machine's cores, no more. */
    private static final int WARM_UP_RANKS = 2;

    /**
     * One projected point.
     *
     * @param nodes   the ranks of the trace, one per node
     * @param trace   where the trace came from
     * @param times   one per NIC, the host first; empty when the point failed
     * @param failure why there is no projection, or null
     */
    record Point(int nodes, String trace, List<IterationTime> times, String failure) {
        /** @return how much shorter NIC {@code i}'s iteration is than the host's, percent */
        double reductionPct(int i) {
            double host = times.getFirst().medianNs();
            return host <= 0 ? 0 : 100 * (host - times.get(i).medianNs()) / host;
        }
    }

    private final List<MessageCosts> costs = new ArrayList<>();
    private final LogGopsParameters network = LogGopsParameters.defaults();

    /** @param strategies the sim strategies to project beside the host */
    Projection(List<String> strategies) {
        NicCatalog catalog = new NicCatalog();
        costs.add(catalog.costs("host", TimingConfig.PAPER, Projection::noModel));
        for (String s : strategies) {
            costs.add(catalog.costs("sim:" + s, TimingConfig.PAPER, Projection::noModel));
        }
    }

    private static void noModel(String warning) {
        throw new MpiException(ErrorClass.ERR_OTHER, "jspin's own cost models are missing: " + warning);
    }

    /** @return the projection of the trace in {@code dir}, a run on {@code ranks} processes */
    Point ofRun(Path dir, int ranks) {
        String from = "this run's trace";
        try {
            return project(ranks, from, new IterationTrace(TraceReader.read(dir)));
        } catch (MpiException e) {
            return new Point(ranks, from, List.of(), e.getMessage());
        }
    }

    /**
     * Traces {@code example} with {@code args} (its sizes; iterations at most {@value #THREAD_ITERATIONS})
     * on {@code nodes} thread ranks, after an untraced run on two, and projects it; a size the example
     * refuses at that many ranks is a point with its failure.
     */
    Point onThreads(String example, List<String> args, int nodes) {
        String from = nodes + " thread ranks traced";
        try {
            Example e = example(example);
            new CommandLine(e).parseArgs(args.toArray(String[]::new));
            // untraced first on as many threads as cores, so that the JIT's compiler threads are not
            // starved by as many ranks as nodes while the traced run measures compute
            e.runOnThreads(Math.min(nodes, WARM_UP_RANKS), MpiOptions.defaults());
            return project(nodes, from, IterationTrace.traced(options -> e.runOnThreads(nodes, options)));
        } catch (MpiException e) {
            return new Point(nodes, from, List.of(), e.getMessage());
        }
    }

    private Point project(int nodes, String from, IterationTrace trace) {
        List<IterationTime> times = new ArrayList<>();
        for (MessageCosts c : costs) {
            times.add(trace.project(c, network));
        }
        return new Point(nodes, from, times, null);
    }

    /** @return the example named {@code name} (one of {@link CompareCommand#EXAMPLES}), as a fresh command */
    private static Example example(String name) {
        try {
            return (Example) Class.forName(Programs.NAMED.get(name)).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | InstantiationException | IllegalAccessException | NoSuchMethodException
                 | InvocationTargetException e) {
            throw new IllegalStateException("example " + name + " cannot be made", e);
        }
    }

    /** @return the LogGOPS parameters of every replay */
    LogGopsParameters network() {
        return network;
    }

    /** @return the headline: each point's time per iteration on each NIC, and how much shorter offload makes it */
    String headline(List<Point> points) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "Projected time per iteration (simulated: a"
                + " LogGOPS replay of each trace, %s, sPIN NIC at the paper preset; compute in the traces measured"
                + " as thread CPU time on this machine; jspin project, docs/replay.md):%n", network));
        for (Point p : points) {
            b.append(String.format(Locale.ROOT, "  %d nodes (%s): ", p.nodes(), p.trace()));
            if (p.failure() != null) {
                b.append("not projected: ").append(p.failure()).append(System.lineSeparator());
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < p.times().size(); i++) {
                IterationTime t = p.times().get(i);
                parts.add(String.format(Locale.ROOT, "%s %,.1f us", t.nic(), t.medianNs() / 1e3)
                        + (i == 0 ? "" : String.format(Locale.ROOT, " (%.1f%% %s)", Math.abs(p.reductionPct(i)),
                        p.reductionPct(i) >= 0 ? "shorter" : "longer")));
            }
            b.append(String.join(", ", parts)).append(System.lineSeparator());
        }
        return b.toString();
    }

    /** @return the points as a table: one row per point and NIC */
    static Table table(List<Point> points) {
        Table t = Table.of(List.of("nodes", "trace", "nic", "runtime_us_measured", "compute_us_measured", "cpu_pack_us",
                "nic_us", "reduction_pct_measured"), Set.of("runtime_us_measured", "compute_us_measured",
                "reduction_pct_measured"));
        for (Point p : points) {
            for (int i = 0; i < p.times().size(); i++) {
                IterationTime e = p.times().get(i);
                t.add(p.nodes(), p.trace(), e.nic(), e.medianNs() / 1e3, e.computeNs() / 1e3, e.cpuPackNs() / 1e3,
                        e.nicNs() / 1e3, p.reductionPct(i));
            }
        }
        return t;
    }
}
