package org.jspin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.jspin.bench.pack.SharedDir;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.experiment.Figures;
import org.jspin.nic.sim.experiment.Verdict;
import org.jspin.report.ReportWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code jspin figures}: the paper's figures, the referee's questions and ours, as CSV, PNG and REPORT.md. */
@Command(name = "figures", mixinStandardHelpOptions = true,
        description = {"Runs the simulator's sweeps and writes CSV files, PNG plots and REPORT.md (a verdict on every"
                + " claim of ../shared/PAPER.md with the numbers behind it) into --out.",
                "fig-fft2d-scaling (claim 7) and fig-halo2d/3d-scaling trace the examples on 2-64 thread ranks and"
                        + " replay them on host and sPIN NICs (docs/replay.md): their compute is measured here."})
final class FiguresCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "figures", description = "where to write (default:"
            + " ${DEFAULT-VALUE})")
    private Path out;

    @Option(names = "--quick", description = "fewer and smaller cases (seconds, for tests)")
    private boolean quick;

    @Mixin // the referee's sweeps use banked whatever the preset
    private TimingOptions timingOptions;

    @Override
    public Integer call() {
        PrintWriter w = spec.commandLine().getOut();
        TimingConfig timing = timingOptions.over(TimingConfig.PAPER);
        SimConfig base = SimConfig.DEFAULT.withTiming(timing);
        w.println("jspin figures: running the sweeps" + (quick ? " (quick)" : "") + "...");
        w.flush();
        Figures.Result r = new Figures(base, quick, SharedDir.layouts()).run();
        List<Path> files = ReportWriter.write(r, base.describe(), out);
        for (Verdict v : r.verdicts()) {
            w.printf("%-70.70s %s%n", v.claim(), v.verdict());
        }
        w.printf(Locale.ROOT, "%d files in %s; %,d NIC packets simulated in %.1f s (%,.0f packets/s); %.1f s in all%n",
                files.size(), out, r.packets(), r.simSeconds(), r.packets() / Math.max(1e-9, r.simSeconds()),
                r.wallSeconds());
        w.flush();
        return 0;
    }
}
