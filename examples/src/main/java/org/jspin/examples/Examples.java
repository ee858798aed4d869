package org.jspin.examples;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.jspin.error.MpiException;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;

import picocli.CommandLine;

/**
 * What every example shares: its command line, the backend and fabric it runs on, and running one
 * rank's program either as a rank of a launcher's job (jspin run, mpiexec, srun) or on threads of
 * this JVM.
 */
public final class Examples {
    private Examples() {
    }

    /**
     * What a run left on this process.
     *
     * @param result   this rank's result (rank 0's, on threads of this JVM)
     * @param reports  whether this process prints the report (rank 0 of a launcher's job, or the JVM that ran the threads)
     * @param backend  the backend it ran on
     * @param fabric   the fabric it ran on
     * @param <R>      the example's result
     */
    public record Outcome<R>(R result, boolean reports, String backend, String fabric) {
    }

    /** Runs {@code command} with {@code args} and exits with its status; an MPI error is said plainly, as {@code name: ...}. */
    public static void main(String name, Object command, String[] args) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof MpiException m) {
                cmd.getErr().println(name + ": " + m.getMessage()); // a bootstrap or MPI error, said plainly
                return 2;
            }
            throw ex;
        });
        System.exit(cl.execute(args));
    }

    /**
     * Runs {@code body} as one rank of the job a launcher started, or else on {@code ranks} threads of
     * this JVM.
     *
     * @param backend the backend, or null for JSPIN_BACKEND's (else host)
     * @param fabric  the fabric, or null for JSPIN_FABRIC's (else local; a launcher's job uses shm within one host, netty across hosts)
     */
    public static <R> Outcome<R> run(int ranks, String backend, String fabric, Function<Mpi, R> body) {
        MpiOptions options = MpiOptions.fromEnvironment();
        if (backend != null) {
            options = options.withBackend(backend);
        }
        if (fabric != null) {
            options = options.withFabric(fabric);
        }
        if (Mpi.launched()) {
            // one rank of a job a launcher started: --ranks does not apply
            try (Mpi mpi = Mpi.init(options)) {
                R r = body.apply(mpi);
                return new Outcome<>(r, mpi.rank() == 0, options.backend(), mpi.options().fabric());
            }
        }
        return new Outcome<>(runLocal(ranks, options, body), true, options.backend(), options.fabric());
    }

    /** Runs {@code body} on {@code ranks} threads of this JVM; @return rank 0's result */
    public static <R> R runLocal(int ranks, MpiOptions options, Function<Mpi, R> body) {
        AtomicReference<R> out = new AtomicReference<>();
        LocalRanks.run(ranks, options, mpi -> {
            R r = body.apply(mpi);
            if (mpi.rank() == 0) {
                out.set(r);
            }
        });
        return out.get();
    }
}
