package org.jspin.replay.testkit;

import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.schedule.Schedule;

/**
 * Run by hand (not a benchmark harness): replays generated halo schedules of growing rank counts and
 * prints operations per second and the heap the schedule and replay hold. Arguments: rank counts
 * (default 64 256 1024) and iterations per rank (default 100), or {@code -f PATH}s: a trace directory
 * or GOAL file replayed as it is.
 */
public final class ReplaySpeed {
    private ReplaySpeed() {
    }

    /** @param args rank counts, then {@code -i N} for iterations */
    public static void main(String[] args) {
        int iterations = 100;
        java.util.List<Integer> sizes = new java.util.ArrayList<>();
        java.util.List<String> files = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-i")) iterations = Integer.parseInt(args[++i]);
            else if (args[i].equals("-f")) files.add(args[++i]);
            else sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty() && files.isEmpty()) sizes = java.util.List.of(64, 256, 1024);
        java.util.List<Schedule> schedules = new java.util.ArrayList<>();
        for (String f : files) {
            java.nio.file.Path path = java.nio.file.Path.of(f);
            schedules.add(org.jspin.replay.trace.TraceReader.isTrace(path) ? org.jspin.replay.trace.TraceReader.read(path)
                    : org.jspin.replay.goal.GoalReader.read(path));
        }
        for (int ranks : sizes) {
            int px = Integer.highestOneBit((int) Math.sqrt(ranks));
            schedules.add(ScheduleGenerator.halo(px, ranks / px, iterations, 4096, 10_000));
        }
        System.out.println("ranks,operations,events,seconds,ops_per_s,heap_mb");
        for (Schedule s : schedules) {
            int ranks = s.ranks();
            for (int warm = 0; warm < 2; warm++) new LogGopsReplay(s, LogGopsParameters.defaults(), PlainBytes.INSTANCE).run();
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long before = rt.totalMemory() - rt.freeMemory();
            long t0 = System.nanoTime();
            LogGopsReplay replay = new LogGopsReplay(s, LogGopsParameters.defaults(), PlainBytes.INSTANCE);
            ReplayResult r = replay.run();
            double seconds = (System.nanoTime() - t0) / 1e9;
            long heap = rt.totalMemory() - rt.freeMemory();
            System.out.printf("%d,%d,%d,%.3f,%.0f,%.1f%n", ranks, s.operations(), r.events(), seconds,
                    s.operations() / seconds, Math.max(before, heap) / 1e6);
        }
    }
}
