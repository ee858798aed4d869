package org.jspin.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.FastThreadLocalThread;

import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.trace.TracedProgram;
import org.jspin.mpi.trace.Tracer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
    /** How long an orphaned rank's descendants get between SIGTERM and SIGKILL. */
    private static final long ORPHAN_GRACE_MILLIS = 1_000;
    /** How often a rank checks that the jspin run that started it is still its parent. */
    private static final long WATCH_MILLIS = 100;
    /** Netty's system property for its leak detector's level (its older spelling is {@code io.netty.leakDetectionLevel}). */
    static final String LEAK_DETECTION_PROPERTY = "io.netty.leakDetection.level";

    @Option(names = "--trace", paramLabel = "DIR", description = "record every rank's schedule in DIR"
            + " (docs/trace-format.md), as JSPIN_TRACE=DIR does")
    Path trace;

    @Mixin
    ProgramSpec spec;

    @Override
    public Integer call() throws Exception {
        watchLauncher();
        quietLeakDetector(System.getProperty(LEAK_DETECTION_PROPERTY), System.getProperty("io.netty.leakDetectionLevel"));
        var main = spec.main();
        if (trace != null) {
            Path dir = trace.toAbsolutePath();
            Tracer.prepare(dir);
            System.setProperty(MpiOptions.TRACE.property(), dir.toString());
        }
        TracedProgram.name(spec.program, spec.args); // what a trace's job.json names
        try {
            onNettysPools(() -> Programs.invoke(main, spec.args));
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

    /** A program's main method. */
    interface Program {
        void run() throws Throwable;
    }

    /**
     * Runs {@code program} on this thread as Netty's pools count a {@code FastThreadLocalThread}:
     * the thread that waits for a message drives the TCP fabric's event loop, and Netty 4.2 keeps
     * neither recycled objects nor a buffer cache for any other thread, so every packet allocated
     * its buffer and write-queue objects afresh (about a fifth of the bytes per round trip).
     */
    static void onNettysPools(Program program) throws Throwable {
        Throwable[] thrown = new Throwable[1];
        FastThreadLocalThread.runWithFastThreadLocal(() -> {
            try {
                program.run();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        if (thrown[0] != null) {
            throw thrown[0];
        }
    }

    /**
     * Turns Netty's buffer leak detector off in a rank, unless its level was asked for
     * ({@code -Dio.netty.leakDetection.level=simple|advanced|paranoid}). At Netty's default
     * level it takes a stack trace at one in 128 buffer allocations, and a rank allocates a
     * buffer per packet it reads: in 3 interleaved rounds of {@code jspin bench pingpong --fabric
     * netty --filter latency}, bound and unbound, p99 was lower without it in 6 of 6 case medians
     * (6.9-10.4 against 9.5-18.7 us) and p50 no higher. The fabric's buffer handling is checked
     * with the detector at its strictest in the transport's tests (WireFuzzTest), not in users' runs.
     *
     * @param level    the value of {@value #LEAK_DETECTION_PROPERTY}, or null
     * @param oldLevel the value of Netty's older property name, or null
     * @return whether the detector was turned off
     */
    static boolean quietLeakDetector(String level, String oldLevel) {
        if (level != null || oldLevel != null) {
            return false; // the user's choice stands
        }
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        return true;
    }

    /** Under {@code jspin run}: if the launcher process goes away, this rank goes too. */
    private static void watchLauncher() {
        String pid = System.getenv("JSPIN_LAUNCHER_PID");
        if (pid == null) {
            return;
        }
        long launcher;
        try {
            launcher = Long.parseLong(pid.trim());
        } catch (NumberFormatException e) {
            System.err.println("jspin exec: ignoring JSPIN_LAUNCHER_PID='" + pid + "' (not a process id)");
            return;
        }
        // The rank may also end on its own once the launcher is gone (its peers, stopped by their
        // own watchers, fail its receives) before its watcher notices: then it still takes its
        // descendants with it on the way out (seen: a rank gone 385 ms after its launcher, its
        // child still running 10 s later).
        boolean parentWatch = parentPid() == launcher;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boolean gone = parentWatch ? parentPid() != launcher
                    : ProcessHandle.of(launcher).map(h -> !h.isAlive()).orElse(true);
            if (gone) {
                stopDescendants();
            }
        }, "jspin-orphan-sweep"));
        if (parentWatch) {
            // The launcher is our parent (setsid execs the rank in place): watch that, not its pid.
            // The kernel re-parents us the moment the launcher dies, whereas onExit() of a process
            // that is not our child polls at intervals growing to 5 s and takes a zombie for alive,
            // so a killed launcher that its own parent never reaps would go unnoticed for ever.
            Thread.ofPlatform().daemon().name("jspin-launcher-watch").start(() -> {
                while (parentPid() == launcher) {
                    try {
                        Thread.sleep(WATCH_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                orphaned();
            });
            return;
        }
        ProcessHandle.of(launcher).ifPresentOrElse(h -> h.onExit().thenRun(ExecCommand::orphaned), ExecCommand::orphaned);
    }

    private static long parentPid() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    }

    private static void orphaned() {
        System.err.println("jspin exec: the jspin run that started this rank is gone; exiting");
        stopDescendants();
        Runtime.getRuntime().halt(143);
    }

    private static void stopDescendants() {
        // A launcher killed by SIGKILL cannot stop what this rank started (its process-group sweep
        // runs in the launcher), so the rank takes its descendants with it: SIGTERM, a moment for
        // them to go, then SIGKILL. All are listed first: a grandchild outlives its parent's death.
        List<ProcessHandle> below = ProcessHandle.current().descendants().toList();
        below.forEach(ProcessHandle::destroy);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ORPHAN_GRACE_MILLIS);
        for (ProcessHandle h : below) {
            try {
                h.onExit().get(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                break; // out of time (or interrupted): what is left gets SIGKILL
            }
        }
        below.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
