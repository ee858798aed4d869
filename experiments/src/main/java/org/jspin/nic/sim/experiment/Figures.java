package org.jspin.nic.sim.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.nic.sim.config.SimConfig;

/**
 * The sweeps behind {@code jspin figures}: each of the paper's figures we can reproduce, the referee's
 * questions, and two of our own, as plain data ({@link Figure}) plus a verdict on every claim of
 * PAPER.md ({@link Verdict}). {@code quick} runs fewer and smaller cases (for the test suite). The
 * sweeps themselves are in families: {@link VectorFigures}, {@link LayoutFigures}, {@link RefereeFigures},
 * {@link BeyondPaperFigures} and {@link ScalingFigures} (whole programs traced and replayed); this class
 * runs them in the order of the report.
 *
 * <p>Everything is simulated with the given configuration except the columns marked measured: the
 * host baseline's own unpack, timed on this machine, and the traced programs' compute (thread CPU time).
 */
public final class Figures {
    /**
     * What {@code jspin figures} produced.
     *
     * @param packets     NIC packets simulated (received; each was also sent through a simulated NIC)
     * @param simSeconds  wall-clock seconds spent simulating them (measured)
     * @param wallSeconds wall-clock seconds of the whole run, host measurements included (measured)
     */
    public record Result(List<Figure> figures, List<Verdict> verdicts, long packets, double simSeconds,
                         double wallSeconds, String preset) {
    }

    private final SimConfig base;
    private final boolean quick;
    private final Path layouts;
    private final int threads;

    /**
     * @param base    the configuration every sweep starts from (its timing preset is named on every plot)
     * @param quick   fewer and smaller cases
     * @param layouts the directory of application layouts ({@code ../shared/layouts})
     */
    public Figures(SimConfig base, boolean quick, Path layouts) {
        this.base = base;
        this.quick = quick;
        this.layouts = layouts;
        this.threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    }

    /** @return every figure and verdict */
    public Result run() {
        long start = System.nanoTime();
        List<Verdict> verdicts = new ArrayList<>();
        try (SimRun sim = new SimRun()) {
            SweepContext context = new SweepContext(base, quick, threads, sim, verdicts);
            VectorFigures vector = new VectorFigures(context);
            LayoutFigures layout = new LayoutFigures(context);
            RefereeFigures referee = new RefereeFigures(context);
            BeyondPaperFigures beyond = new BeyondPaperFigures(context);
            List<Layout> cases = Layout.all(layouts, quick);
            List<Figure> figures = new ArrayList<>();
            figures.add(vector.vectorThroughput());
            figures.add(layout.layoutSpeedup(cases));
            figures.add(layout.memoryTraffic(cases));
            figures.add(layout.checkpointReuse(cases));
            figures.add(vector.dmaQueue());
            figures.add(vector.putLatency());
            figures.add(referee.refereeMemory());
            figures.add(referee.refereeHostThreads());
            figures.add(referee.refereeIovec());
            figures.add(referee.settle());
            figures.add(beyond.hpuLocalCatchUp());
            figures.add(beyond.outOfOrder());
            figures.add(layout.seekAgainstRwCp(cases));
            ScalingFigures scaling = new ScalingFigures(context);
            figures.add(scaling.fft2d());
            figures.add(scaling.halo2d());
            figures.add(scaling.halo3d());
            double wall = (System.nanoTime() - start) / 1e9;
            return new Result(figures, verdicts, sim.packets(), sim.seconds(), wall, base.timing().preset());
        }
    }
}
