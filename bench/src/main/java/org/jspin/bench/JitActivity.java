package org.jspin.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What this JVM's JIT compilers are doing, for the benchmarks' warm-ups, in two views.
 *
 * <p>{@link #since}: how much they did since the last look, as a number that is 0 when they were
 * idle. Two sources, added: the CPU time of the compiler threads (scheduler ticks, from
 * {@code /proc/self/task} on Linux), which counts a compilation while it runs; and the
 * compilation time of the {@link CompilationMXBean}, which counts one only once it has ended. The
 * MXBean alone let a ping-pong measurement start while C2 was still compiling: a compilation
 * longer than the warm-up's quiet batches looked like quiet (docs/PERFORMANCE.md).
 *
 * <p>{@link #compilingMeasuredCode}: whether a method of the code being measured is being
 * compiled or waits in a compile queue, from the {@code Compiler.queue} diagnostic command
 * ({@code jcmd PID Compiler.queue}) read through its MBean. While such a compilation is pending,
 * the measured code still runs at a lower tier, and for the engine's Vector API kernels that is up
 * to 50 times slower than the C2 code to come.
 *
 * <p>One thread at a time: it remembers what it saw at the last look.
 */
public final class JitActivity {
    /** Packages whose pending compilation means the measured path is not final yet. */
    private static final List<String> MEASURED = List.of(" org.jspin.", " jdk.incubator.vector.");

    /** How Linux names a HotSpot compiler thread ({@code comm} is cut at 15 characters). */
    private static final String COMPILER_THREAD = "CompilerThre";
    private static final String[] NO_ARGS = {null};
    private static final String[] SIGNATURE = {String[].class.getName()};
    /** The diagnostic command MBean ({@code jcmd}'s commands as its operations). */
    static final ObjectName QUEUE_COMMAND = name("com.sun.management:type=DiagnosticCommand");

    private final Path tasks;
    private final CompilationMXBean jit;
    /** Where the diagnostic command MBean is looked for, at the first {@link #compilingMeasuredCode}. */
    private final Supplier<MBeanServer> servers;
    /** Ticks of each compiler thread at the last look, by thread id. */
    private final Map<String, Long> ticks = new HashMap<>();
    private long compileMillis;
    /** The server holding the diagnostic command MBean, once looked for; null where it has none. */
    private MBeanServer server;
    private boolean lookedForQueues;

    /** Looks at this JVM: {@code /proc/self/task}, its compilation MXBean and its compile queues. */
    public JitActivity() {
        this(Path.of("/proc/self/task"), ManagementFactory.getCompilationMXBean(),
                ManagementFactory::getPlatformMBeanServer);
    }

    /** Looks at {@code tasks} and {@code jit} only: no compile queue is seen. */
    JitActivity(Path tasks, CompilationMXBean jit) {
        this(tasks, jit, () -> null);
    }

    /**
     * @param tasks   a {@code /proc/<pid>/task} directory (absent: thread CPU time is not counted)
     * @param jit     the compilation MXBean, or null
     * @param servers the MBean server that may hold the diagnostic command MBean (or null for none);
     *                asked at the first {@link #compilingMeasuredCode}, so that a warm-up that only
     *                counts ticks never starts the platform's MBean server
     */
    JitActivity(Path tasks, CompilationMXBean jit, Supplier<MBeanServer> servers) {
        this.tasks = tasks;
        this.jit = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
        this.servers = servers;
        since();
    }

    /** @return the server from {@code servers} if it holds the diagnostic command MBean, else null */
    private static MBeanServer withQueueCommand(Supplier<MBeanServer> servers) {
        try {
            MBeanServer s = servers.get();
            return s != null && s.isRegistered(QUEUE_COMMAND) ? s : null;
        } catch (RuntimeException e) {
            return null; // as if absent: nothing is known of the queues
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new IllegalArgumentException(name, e); // a constant: never
        }
    }

    /**
     * @return compiler-thread ticks plus milliseconds of ended compilations since the last call (or
     *         construction); 0 means the compilers did nothing that either source could see
     */
    public long since() {
        long activity = 0;
        if (jit != null) {
            long now = jit.getTotalCompilationTime();
            activity += now - compileMillis;
            compileMillis = now;
        }
        return activity + compilerTicks();
    }

    /**
     * @return whether a method of {@link #MEASURED} is being compiled or waits in a compile queue
     *         (false where this JVM has no diagnostic command MBean: then nothing is known)
     */
    public boolean compilingMeasuredCode() {
        if (!lookedForQueues) {
            server = withQueueCommand(servers);
            lookedForQueues = true;
        }
        if (server == null) {
            return false;
        }
        String queue;
        try {
            queue = String.valueOf(server.invoke(QUEUE_COMMAND, "compilerQueue", NO_ARGS, SIGNATURE));
        } catch (JMException | RuntimeException e) {
            return false;
        }
        return namesMeasuredCode(queue);
    }

    /** @return whether the printed compile queue {@code queue} holds a method of {@link #MEASURED} */
    static boolean namesMeasuredCode(String queue) {
        for (String p : MEASURED) {
            if (queue.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** @return ticks the compiler threads used since the last look (a thread that is new counts whole) */
    private long compilerTicks() {
        if (!Files.isDirectory(tasks)) {
            return 0;
        }
        long grown = 0;
        Map<String, Long> seen = new HashMap<>();
        try (Stream<Path> all = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) all::iterator) {
                long t = ticksIfCompiler(task);
                if (t >= 0) {
                    String id = task.getFileName().toString();
                    seen.put(id, t);
                    grown += Math.max(0, t - ticks.getOrDefault(id, 0L));
                }
            }
        } catch (IOException e) {
            return grown; // threads come and go while the directory is read: what was read counts
        }
        ticks.clear();
        ticks.putAll(seen); // a thread that ended is forgotten, never counted backwards
        return grown;
    }

    /** @return the user plus system ticks of {@code task} if it is a compiler thread, else -1 */
    private static long ticksIfCompiler(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains(COMPILER_THREAD)) {
                return -1;
            }
            String stat = Files.readString(task.resolve("stat"));
            // the name in parentheses may hold spaces: fields are counted from the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
        } catch (IOException | RuntimeException e) {
            return -1; // the thread ended, or its stat is not what Linux writes
        }
    }
}
