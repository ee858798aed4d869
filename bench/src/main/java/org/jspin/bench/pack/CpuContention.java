package org.jspin.bench.pack;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How much CPU other processes used while a measurement ran: the machine's busy time from
 * {@code /proc/stat} less this JVM's own CPU time. On a two-core machine one busy neighbour (a
 * build, a test run) takes the core that the JIT and GC threads would have had and halves the
 * memory bandwidth, so a sweep prints this figure next to its table.
 */
public final class CpuContention {
    /** Linux reports {@code /proc/stat} in clock ticks of 1/100 s on every common configuration. */
    private static final double TICKS_PER_SECOND = 100;
    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final long wallNanos;
    private final long ownCpuNanos;
    private final long busyTicks;
    private final long stealTicks;

    private CpuContention(long wallNanos, long ownCpuNanos, long busyTicks, long stealTicks) {
        this.wallNanos = wallNanos;
        this.ownCpuNanos = ownCpuNanos;
        this.busyTicks = busyTicks;
        this.stealTicks = stealTicks;
    }

    /** @return the counters now; compare a later snapshot with {@link #since} */
    public static CpuContention now() {
        long busy = -1;
        long steal = -1;
        try {
            // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"
            String[] f = Files.readAllLines(PROC_STAT).getFirst().trim().split("\\s+");
            busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
            steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: the report says the figure is unknown
        }
        return new CpuContention(System.nanoTime(), ownCpu(), busy, steal);
    }

    /**
     * @return a one-line summary of the CPU that other processes (and the hypervisor, as steal
     *         time) took between {@code earlier} and this snapshot
     */
    public String since(CpuContention earlier) {
        int cpus = Runtime.getRuntime().availableProcessors();
        double wall = (wallNanos - earlier.wallNanos) / 1e9;
        if (busyTicks < 0 || earlier.busyTicks < 0 || ownCpuNanos < 0 || wall <= 0) {
            return "CPU use of other processes unknown (no /proc/stat)";
        }
        double busy = (busyTicks - earlier.busyTicks) / TICKS_PER_SECOND;
        double own = (ownCpuNanos - earlier.ownCpuNanos) / 1e9;
        double others = Math.max(0, busy - own) / wall;
        double steal = (stealTicks - earlier.stealTicks) / TICKS_PER_SECOND / wall;
        String s = String.format(Locale.ROOT,
                "other processes kept %.2f of %d CPUs busy on average (this JVM %.2f, steal %.2f)", others, cpus,
                own / wall, steal);
        // a tenth of a core is background noise; more than a quarter changes the figures
        return others + steal > 0.25 ? s + ": figures are suspect" : s;
    }

    private static long ownCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }
}
