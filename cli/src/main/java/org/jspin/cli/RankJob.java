package org.jspin.cli;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
            command.addAll(jvmFlags());
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
     * @return this JVM's own flags (modules, exports, heap, system properties), so every rank runs as
     *         this one does; agents are left out, since one given in JAVA_TOOL_OPTIONS (a profiler)
     *         reaches the ranks through their environment and would load twice
     */
    private static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib") && !a.startsWith("-agentpath") && !a.startsWith("-javaagent")) {
                flags.add(a);
            }
        }
        return flags;
    }
}
