package org.jspin.cli;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.module.ModuleFinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspin.transport.netty.NettyFabricProvider;
import org.jspin.transport.netty.join.NettyLaunch;
import org.jspin.bootstrap.launch.RankLauncher;
import org.jspin.bootstrap.rendezvous.RendezvousServer;

/**
 * A job of N JVMs on this machine, each running {@code jspin exec PROGRAM}: a fresh job id and
 * secret, a rendezvous served by this process on the loopback address, and the JVM this command
 * runs in (its java binary, flags and class path) for every rank. What {@code jspin run} and
 * {@code jspin bench pingpong --fabric netty} share.
 */
final class RankJob {
    private static final String VECTOR_MODULE = "jdk.incubator.vector";

    private RankJob() {
    }

    /**
     * Starts the ranks and waits for them.
     *
     * @param ranks     processes to start
     * @param program   {@code jspin exec}'s arguments: the program, then its arguments
     * @param env       extra environment for every rank (backend, say)
     * @param timeout   how long the job may take
     * @return how the job ended (exit code, failed rank, timeout)
     */
    static RankLauncher.Result run(int ranks, List<String> program, Map<String, String> env, Duration timeout,
                                   PrintStream out, PrintStream err) {
        return run(ranks, program, env, timeout, Binding.NONE, out, err);
    }

    /**
     * Starts the ranks, each bound as {@code binding} says, and waits for them.
     *
     * @param ranks     processes to start
     * @param program   {@code jspin exec}'s arguments: the program, then its arguments
     * @param env       extra environment for every rank (backend, say)
     * @param timeout   how long the job may take
     * @param binding   where each rank may run
     * @return how the job ended (exit code, failed rank, timeout)
     */
    static RankLauncher.Result run(int ranks, List<String> program, Map<String, String> env, Duration timeout,
                                   Binding binding, PrintStream out, PrintStream err) {
        String job = "run-" + UUID.randomUUID();
        String secret = NettyFabricProvider.newSecret();
        try (RendezvousServer rendezvous = RendezvousServer.start(NettyLaunch.LOOPBACK, 0, job, secret, ranks,
                timeout.plusSeconds(5))) {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
            command.addAll(runtimeFlags(ModuleFinder.ofSystem().find(VECTOR_MODULE).isPresent()));
            command.addAll(jitFlags(ranks, Runtime.getRuntime().availableProcessors()));
            command.addAll(jvmFlags()); // after ours: a flag of the user's (JAVA_TOOL_OPTIONS, say) wins
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(Main.class.getName());
            command.add("exec");
            command.addAll(program);
            return new RankLauncher(out, err).run(ranks, rank -> binding.apply(rank, command), rank -> {
                Map<String, String> e = new HashMap<>(env);
                e.put("JSPIN_RANK", Integer.toString(rank));
                e.put("JSPIN_SIZE", Integer.toString(ranks));
                e.put("JSPIN_JOB", job);
                e.put("JSPIN_SECRET", secret);
                e.put("JSPIN_RENDEZVOUS", rendezvous.address());
                return e;
            }, timeout);
        }
    }

    /**
     * The flags every rank needs, whatever this JVM was started with: the exports Agrona's queues
     * need ({@code jdk.internal.misc}), native access for Netty's epoll transport and the FFM calls,
     * and the Vector API's module for the SIMD pack kernels where the JDK has it. A launcher started
     * as {@code java -jar jspin.jar} gets the first two from the jar's manifest, which its ranks,
     * started with {@code -cp}, do not read; without them every rank died at its first queue.
     *
     * @param vectorModule whether this JDK has {@code jdk.incubator.vector}
     * @return the flags, before the launcher's own (repeating one of them is harmless)
     */
    static List<String> runtimeFlags(boolean vectorModule) {
        List<String> flags = new ArrayList<>(List.of("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED"));
        if (vectorModule) {
            flags.add("--add-modules=" + VECTOR_MODULE);
        }
        return flags;
    }

    /**
     * The JIT mode of the ranks: with more ranks than CPUs, C2 alone ({@code -XX:-TieredCompilation})
     * rather than the tiered default. Each rank's JVM compiles its startup and message path twice
     * under tiered compilation (C1 with profiling, then C2), thousands of methods; with the ranks
     * already sharing the CPUs, those compiler threads take the time the ranks wait for
     * (docs/PERFORMANCE.md, "RankJob"). With a CPU per rank (the ping-pong's 2 ranks) tiered stays: there the compilers have CPU
     * time to spare.
     * A user's own {@code -XX:+TieredCompilation} comes later on the command line and wins.
     *
     * @param ranks processes of the job on this machine
     * @param cpus  CPUs this machine offers the job
     * @return the flags to start each rank with (possibly none)
     */
    static List<String> jitFlags(int ranks, int cpus) {
        return ranks > cpus ? List.of("-XX:-TieredCompilation") : List.of();
    }

    /**
     * @return this JVM's own flags (modules, exports, heap, system properties), so every rank runs as
     *         this one does
     */
    private static List<String> jvmFlags() {
        return jvmFlags(ManagementFactory.getRuntimeMXBean().getInputArguments(), System.getenv("JAVA_TOOL_OPTIONS"));
    }

    /**
     * The launcher's flags to pass on: all but agents and those that came from JAVA_TOOL_OPTIONS.
     * The ranks inherit the environment, so what JAVA_TOOL_OPTIONS gives reaches them anyway, and
     * given twice it would act twice: an agent (a profiler) would load twice, and a
     * {@code -XX:StartFlightRecording} would start two recordings that write every event twice.
     * Agents on the launcher's command line are left out too, as they always were.
     *
     * @param input       the launcher's input arguments (JAVA_TOOL_OPTIONS' included, as the JVM reports them)
     * @param toolOptions the JAVA_TOOL_OPTIONS variable, or null
     * @return the flags to start each rank with
     */
    static List<String> jvmFlags(List<String> input, String toolOptions) {
        Set<String> inherited = toolOptions == null || toolOptions.isBlank() ? Set.of()
                : new HashSet<>(Arrays.asList(toolOptions.trim().split("\\s+")));
        List<String> flags = new ArrayList<>();
        for (String a : input) {
            boolean agent = a.startsWith("-agentlib") || a.startsWith("-agentpath") || a.startsWith("-javaagent");
            if (!agent && !inherited.contains(a)) {
                flags.add(a);
            }
        }
        return flags;
    }
}
