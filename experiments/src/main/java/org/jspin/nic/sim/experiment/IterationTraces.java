package org.jspin.nic.sim.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.trace.TraceReader;

/**
 * A program traced on thread ranks at two iteration counts, so that its projected time per iteration
 * is the difference of the two replays divided by the difference of the counts: the setup before the
 * first iteration (and what follows the last) is in both and cancels. Compute in a trace is the
 * ranks' thread CPU time measured on this machine; everything else a replay adds is simulated.
 */
final class IterationTraces {
    /** A program that runs on thread ranks with the given options (and so traces where they say). */
    @FunctionalInterface
    interface Program {
        /** Runs {@code iterations} iterations at problem size {@code size} on {@code ranks} threads. */
        void run(int ranks, MpiOptions options, int size, int iterations);
    }

    /**
     * One NIC's projection, per iteration, in ns; each figure is the slowest rank's.
     *
     * @param nic       the NIC as its costs name it
     * @param runtimeNs the whole job's projected time per iteration
     * @param computeNs the compute (measured thread CPU time)
     * @param cpuPackNs the CPU's pack and unpack (the NIC's cost model)
     * @param nicNs     the NIC's handler time (the NIC's cost model)
     */
    record PerIteration(String nic, double runtimeNs, double computeNs, double cpuPackNs, double nicNs) {
    }

    private final Schedule fewer;
    private final Schedule more;
    private final int difference;

    IterationTraces(Schedule fewer, Schedule more, int difference) {
        if (difference < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "iteration difference " + difference + " must be at least 1");
        }
        this.fewer = fewer;
        this.more = more;
        this.difference = difference;
    }

    /**
     * Runs {@code program} once untraced (the JIT's first compilations would otherwise fall in the first
     * trace only, and not cancel), then traces it twice in a temporary directory (removed afterwards).
     *
     * @throws MpiException ERR_ARG unless {@code 1 <= fewer < more}
     */
    static IterationTraces record(Program program, int ranks, int size, int fewer, int more) {
        if (fewer < 1 || more <= fewer) {
            throw new MpiException(ErrorClass.ERR_ARG, "iteration counts " + fewer + " and " + more
                    + " must satisfy 1 <= fewer < more");
        }
        program.run(ranks, MpiOptions.defaults(), size, more);
        return new IterationTraces(traced(program, ranks, size, fewer), traced(program, ranks, size, more),
                more - fewer);
    }

    /** @return the schedule of one traced run */
    private static Schedule traced(Program program, int ranks, int size, int iterations) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jspin-scaling-");
            program.run(ranks, MpiOptions.defaults().withTrace(dir.toString()), size, iterations);
            return TraceReader.read(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the ranks of the traced job */
    int ranks() {
        return more.ranks();
    }

    /** @return both traces replayed on {@code costs} with {@code parameters}, per iteration */
    PerIteration project(MessageCosts costs, LogGopsParameters parameters) {
        ReplayResult a = new LogGopsReplay(fewer, parameters, costs).run();
        ReplayResult b = new LogGopsReplay(more, parameters, costs).run();
        long compute = Long.MIN_VALUE;
        long pack = Long.MIN_VALUE;
        long nic = Long.MIN_VALUE;
        for (int r = 0; r < b.ranks(); r++) {
            compute = Math.max(compute, b.computeNs(r) - a.computeNs(r));
            pack = Math.max(pack, b.cpuPackNs(r) - a.cpuPackNs(r));
            nic = Math.max(nic, b.nicNs(r) - a.nicNs(r));
        }
        double d = difference;
        return new PerIteration(b.nic(), (b.finishNs() - a.finishNs()) / d, compute / d, pack / d, nic / d);
    }
}
