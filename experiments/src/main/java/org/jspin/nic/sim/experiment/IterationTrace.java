package org.jspin.nic.sim.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.report.IterationTime;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.trace.TraceReader;

/**
 * A program's trace whose ranks marked their iterations ({@code Mpi.markIteration}), replayed to give
 * its time per iteration on a NIC: the median interval between the job's marks ({@link IterationTime}),
 * so that the setup before the first iteration, the JIT's first iterations and a collector's pause do
 * not count. Compute in a trace is the ranks' thread CPU time measured on this machine; everything a
 * replay adds is simulated.
 */
public final class IterationTrace {
    /** A program that runs on thread ranks with the given options (and so traces where they say). */
    @FunctionalInterface
    public interface Program {
        /** Runs {@code iterations} iterations at problem size {@code size} on {@code ranks} threads. */
        void run(int ranks, MpiOptions options, int size, int iterations);
    }

    private final Schedule schedule;

    /** @param schedule a trace read back ({@code TraceReader}) whose ranks marked their iterations */
    public IterationTrace(Schedule schedule) {
        this.schedule = schedule;
    }

    /**
     * Traces {@code program} on {@code ranks} threads of this JVM in a temporary directory (removed
     * afterwards) and reads the trace back.
     *
     * @throws MpiException ERR_ARG unless {@code iterations >= 1}
     */
    public static IterationTrace record(Program program, int ranks, int size, int iterations) {
        if (iterations < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "iterations " + iterations + " must be at least 1");
        }
        return traced(options -> program.run(ranks, options, size, iterations));
    }

    /**
     * Runs {@code run} with the default options tracing into a temporary directory (removed
     * afterwards) and reads the trace back.
     */
    public static IterationTrace traced(Consumer<MpiOptions> run) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jspin-iterations-");
            run.accept(MpiOptions.defaults().withTrace(dir.toString()));
            return new IterationTrace(TraceReader.read(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    /** Removes {@code dir} and everything in it. */
    public static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the ranks of the traced job */
    public int ranks() {
        return schedule.ranks();
    }

    /**
     * @return the trace replayed on {@code costs} with {@code parameters}, per iteration
     * @throws MpiException ERR_ARG when the ranks did not mark the same number of iterations
     */
    public IterationTime project(MessageCosts costs, LogGopsParameters parameters) {
        return IterationTime.of(new LogGopsReplay(schedule, parameters, costs).run());
    }
}
