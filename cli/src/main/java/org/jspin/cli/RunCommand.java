package org.jspin.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.launch.RankLauncher;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.trace.Tracer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jspin run -n N PROGRAM [args]}: N JVMs on this machine, connected through shared memory
 * (the {@code shm} fabric), or over TCP with {@code --fabric netty}.
 * Every output line carries its rank; the first non-zero exit code is the command's; a failing
 * rank or the timeout stops the others, and none is left behind.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs PROGRAM as N processes on this machine, connected through shared memory (or over TCP on the"
                + " loopback address with --fabric netty).",
                "PROGRAM is halo2d, halo3d, fft2d, particles, pingpong, or a main class (with --classpath); its arguments follow it."})
final class RunCommand implements Callable<Integer> {
    @Option(names = {"-n", "--ranks"}, required = true, description = "processes to start")
    int ranks;

    @Option(names = "--backend", description = "NIC backend of every rank: host (the CPU packs) or sim (the simulated sPIN NIC); default host")
    String backend;

    @Option(names = "--fabric", description = "how the processes are connected: shm (shared memory, the default) or"
            + " netty (TCP on the loopback address); sets JSPIN_FABRIC for every rank")
    String fabric;

    @Option(names = "--timeout", defaultValue = "600", description = "seconds the whole job may take (default ${DEFAULT-VALUE})")
    long timeoutSeconds;

    @Option(names = "--bind-to", defaultValue = "none", converter = BindingConverter.class,
            description = "none (default), or core: rank r on CPU r modulo the CPUs (as mpirun's --bind-to)")
    Binding binding;

    @Option(names = "--trace", paramLabel = "DIR", description = "every rank records its schedule in DIR"
            + " (docs/trace-format.md: job.json and rank-<r>.trace); sets JSPIN_TRACE for every rank")
    Path trace;

    @Mixin
    ProgramSpec spec;

    @Override
    public Integer call() {
        if (ranks < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "-n must be at least 1, got " + ranks);
        }
        if (timeoutSeconds < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        spec.main(); // an unknown program fails here, once, not in every rank
        List<String> exec = spec.asExecArguments();
        Map<String, String> env = new HashMap<>();
        if (backend != null) {
            env.put("JSPIN_BACKEND", backend);
        }
        if (fabric != null) {
            if (!fabric.equals("shm") && !fabric.equals("netty")) {
                throw new MpiException(ErrorClass.ERR_ARG, "--fabric must be shm or netty for processes, got '" + fabric
                        + "'");
            }
            env.put("JSPIN_FABRIC", fabric);
        }
        if (trace != null) {
            Path dir = trace.toAbsolutePath(); // the ranks' working directory may differ
            Tracer.prepare(dir); // a directory no rank could write fails here, before any starts
            env.put(MpiOptions.TRACE.environment(), dir.toString());
        }
        RankLauncher.Result r = RankJob.run(ranks, exec, env, Duration.ofSeconds(timeoutSeconds), binding, System.out,
                System.err);
        return r.exitCode();
    }
}
