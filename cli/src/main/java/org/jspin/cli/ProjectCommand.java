package org.jspin.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.NicCatalog;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.goal.GoalReader;
import org.jspin.replay.goal.GoalWriter;
import org.jspin.replay.report.ReplayReport;
import org.jspin.replay.schedule.PackAsCalc;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.trace.TraceReader;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin project}: a trace or a GOAL schedule replayed in the LogGOPS model (as LogGOPSim) on
 * a simulated cluster of host or sPIN NICs, or written as GOAL. Simulated, not measured.
 */
@Command(name = "project", mixinStandardHelpOptions = true,
        description = {"Replays a jspin trace directory (docs/trace-format.md) or a LogGOPSim GOAL file in the LogGOPS"
                + " model, once per NIC, and prints each NIC's finish time (simulated; docs/replay.md gives the rules).",
                "LogGOPS defaults: L=2500 ns, o=1500 ns, g=1000 ns, O=0 ns/B, S=65535 B (LogGOPSim's"
                        + " loggopsim_cmdline.ggo); G=0.04 ns/B (the paper's 200 Gbit/s NIC)."})
final class ProjectCommand implements Callable<Integer> {
    private static final long PROGRESS_OPS = 1_000_000;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR|FILE.goal", description = "a trace directory or a GOAL file")
    private Path input;

    @Option(names = "--nic", split = ",", paramLabel = "NIC", description = "host, sim[:STRATEGY] or plain (LogGOPS"
            + " alone); several give one replay each (default: host)")
    private List<String> nics;

    @Option(names = "--loggops", paramLabel = "L=..,o=..,g=..,G=..,O=..,S=..", description = "LogGOPS parameters:"
            + " L, o, g in ns; G, O in ns per byte (up to three decimals); S in bytes (rendezvous above)")
    private String loggops;

    @Mixin
    private TimingOptions timingOptions;

    @Option(names = "--json", description = "print a JSON list, one object per NIC with its ranks")
    private boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "write DIR/project.csv (one row per NIC and rank),"
            + " DIR/project-finish.png (each rank's finish per NIC) and DIR/project-breakdown.png (the slowest rank's"
            + " compute, pack, NIC and wait per NIC)")
    private Path out;

    @Option(names = "--goal", paramLabel = "FILE", description = "write the schedule as LogGOPSim's GOAL text and exit;"
            + " with --nic host (the default) a host's pack and unpack of a datatype become calcs")
    private Path goal;

    @Override
    public Integer call() throws Exception {
        Schedule schedule = read(input);
        TimingConfig timing = timingOptions.over(TimingConfig.PAPER);
        NicCatalog catalog = new NicCatalog();
        var err = spec.commandLine().getErr();
        if (goal != null) {
            if (nics != null && nics.size() > 1) {
                throw new MpiException(ErrorClass.ERR_ARG, "--goal writes one NIC's schedule; --nic names " + nics);
            }
            // a host's pack and unpack become calcs; what a sPIN NIC does has no GOAL operation
            String nic = nics == null ? "host" : nics.getFirst().trim();
            MessageCosts costs = catalog.costs(nic, timing, w -> err.println("jspin project: " + w));
            GoalWriter.write(PackAsCalc.apply(schedule, costs), goal);
            spec.commandLine().getOut().println("wrote " + goal + ": " + schedule.ranks() + " ranks, "
                    + schedule.operations() + " operations");
            return 0;
        }
        LogGopsParameters parameters = loggops == null ? LogGopsParameters.defaults()
                : LogGopsParameters.defaults().with(loggops);
        List<ReplayResult> results = new ArrayList<>();
        for (String nic : nics == null ? List.of("host") : nics) {
            MessageCosts costs = catalog.costs(nic.trim(), timing, w -> err.println("jspin project: " + w));
            LogGopsReplay replay = new LogGopsReplay(schedule, parameters, costs);
            boolean longRun = schedule.operations() >= PROGRESS_OPS;
            results.add(replay.run(longRun ? (done, total, now) -> err.printf("jspin project: %s %d%% (%d of %d"
                    + " operations, simulated %.3f ms)%n", costs.nic(), 100 * done / total, done, total, now / 1e6) : null));
        }
        ReplayReport report = new ReplayReport(results);
        if (out != null) {
            report.writeCsv(out.resolve("project.csv"));
            Path name = input.toAbsolutePath().normalize().getFileName();
            ProjectCharts.write(results, name == null ? input.toString() : name.toString(), parameters.toString(),
                    timing.preset(), out);
        }
        var o = spec.commandLine().getOut();
        if (json) {
            o.println(new ObjectMapper().writeValueAsString(report.json()));
        } else {
            o.println(schedule.source() + ": " + schedule.ranks() + " ranks, " + schedule.operations()
                    + " operations; LogGOPS " + parameters + " (simulated)");
            o.print(report.text());
            o.flush(); // print does not flush; System.exit would drop the table
        }
        return 0;
    }

    private static Schedule read(Path input) {
        if (TraceReader.isTrace(input)) return TraceReader.read(input);
        if (Files.isRegularFile(input)) return GoalReader.read(input);
        throw new MpiException(ErrorClass.ERR_ARG, input + " is neither a trace directory (job.json, rank-<r>.trace)"
                + " nor a GOAL file");
    }
}
