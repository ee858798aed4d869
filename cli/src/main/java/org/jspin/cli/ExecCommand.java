package org.jspin.cli;

import java.util.concurrent.Callable;

import org.jspin.error.MpiException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jspin exec PROGRAM [args]}: one rank of a job some launcher started ({@code jspin run},
 * {@code mpiexec.hydra -n 4 ./jspin exec halo2d}, {@code srun}, {@code mpirun}). The program's
 * {@code Mpi.init()} finds the job in the environment; this command only starts the program, and
 * ends the rank if the {@code jspin run} that started it disappears, so no rank outlives its
 * launcher.
 */
@Command(name = "exec", mixinStandardHelpOptions = true,
        description = {"Runs one rank of PROGRAM under a launcher: jspin run, MPICH's mpiexec.hydra, Slurm's srun"
                + " or Open MPI's mpirun (Slurm and mpirun also need JSPIN_RENDEZVOUS=host:port, served by rank 0,"
                + " and JSPIN_SECRET).",
                "PROGRAM is halo2d, halo3d, fft2d, particles, pingpong, or a main class (with --classpath)."})
final class ExecCommand implements Callable<Integer> {
    @Mixin
    ProgramSpec spec;

    @Override
    public Integer call() throws Exception {
        watchLauncher();
        var main = spec.main();
        try {
            Programs.invoke(main, spec.args);
            return 0;
        } catch (MpiException e) {
            System.err.println("jspin exec: " + spec.program + " failed: " + e.getMessage());
            return 1;
        } catch (Error | Exception e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Under {@code jspin run}: if the launcher process goes away, this rank goes too. */
    private static void watchLauncher() {
        String pid = System.getenv("JSPIN_LAUNCHER_PID");
        if (pid == null) {
            return;
        }
        try {
            ProcessHandle.of(Long.parseLong(pid.trim())).ifPresentOrElse(
                    h -> h.onExit().thenRun(ExecCommand::orphaned),
                    ExecCommand::orphaned);
        } catch (NumberFormatException e) {
            System.err.println("jspin exec: ignoring JSPIN_LAUNCHER_PID='" + pid + "' (not a process id)");
        }
    }

    private static void orphaned() {
        System.err.println("jspin exec: the jspin run that started this rank is gone; exiting");
        Runtime.getRuntime().halt(143);
    }
}
