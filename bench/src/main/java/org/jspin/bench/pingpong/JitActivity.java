package org.jspin.bench.pingpong;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What this JVM's JIT compilers have been doing since the last look, as a number that is 0 when
 * they were idle. Two sources, added: the CPU time of the compiler threads (scheduler ticks, from
 * {@code /proc/self/task} on Linux), which counts a compilation while it runs; and the
 * compilation time of the {@link CompilationMXBean}, which counts one only once it has ended.
 *
 * <p>The MXBean alone let a ping-pong measurement start while C2 was still compiling: a
 * compilation longer than the warm-up's quiet batches looked like quiet, and the compiler thread
 * then took the CPU from a spinning rank during the first case (unbound, latency_8B as the first
 * case: p99 above 5 times the p50 in 3 of 6 launches, and in none of 6 with {@code -Xbatch},
 * where each compilation ends before the code that asked for it goes on).
 */
final class JitActivity {
    /** How Linux names a HotSpot compiler thread ({@code comm} is cut at 15 characters). */
    private static final String COMPILER_THREAD = "CompilerThre";

    private final Path tasks;
    private final CompilationMXBean jit;
    /** Ticks of each compiler thread at the last look, by thread id. */
    private final Map<String, Long> ticks = new HashMap<>();
    private long compileMillis;

    /** Looks at this JVM: {@code /proc/self/task} and its compilation MXBean. */
    JitActivity() {
        this(Path.of("/proc/self/task"), ManagementFactory.getCompilationMXBean());
    }

    /**
     * @param tasks a {@code /proc/<pid>/task} directory (absent: thread CPU time is not counted)
     * @param jit   the compilation MXBean, or null
     */
    JitActivity(Path tasks, CompilationMXBean jit) {
        this.tasks = tasks;
        this.jit = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
        since();
    }

    /**
     * @return compiler-thread ticks plus milliseconds of ended compilations since the last call (or
     *         construction); 0 means the compilers did nothing that either source could see
     */
    long since() {
        long activity = 0;
        if (jit != null) {
            long now = jit.getTotalCompilationTime();
            activity += now - compileMillis;
            compileMillis = now;
        }
        return activity + compilerTicks();
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
