package org.jspin.replay.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.replay.PlainBytes;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.goal.GoalWriter;
import org.jspin.replay.schedule.Schedule;

/**
 * Run by hand: sets this replay against a LogGOPSim built on this machine, on schedules of several
 * shapes and two parameter sets, and prints a markdown table (docs/replay.md). Argument: the directory
 * holding LogGOPSim's {@code txt2bin} and {@code LogGOPSim} binaries.
 */
public final class LogGopsimComparison {
    private static final Pattern HOST = Pattern.compile("Host (\\d+): (\\d+)");
    private static final Pattern MAX = Pattern.compile("Maximum finishing time at host (\\d+): (\\d+)");

    private LogGopsimComparison() {
    }

    /** @param args the directory of LogGOPSim's binaries */
    public static void main(String[] args) throws Exception {
        Path bin = Path.of(args[0]);
        LogGopsParameters[] sets = {LogGopsParameters.ofNanos(2500, 1500, 1000, 6, 0, 65535),
                LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000)};
        List<Schedule> shapes = List.of(ScheduleGenerator.ring(8, 3, 4096), ScheduleGenerator.tree(13, 2048),
                ScheduleGenerator.pairwise(16, 1500, 3000), ScheduleGenerator.halo(4, 4, 3, 8192, 20_000),
                ScheduleGenerator.fanIn(6, 3, 64), ScheduleGenerator.halo(16, 8, 4, 512, 5_000));
        System.out.println("| schedule | ranks | ops | parameters | LogGOPSim max finish (ns) | ours | ranks compared | equal |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        Path dir = Files.createTempDirectory("loggopsim-compare");
        for (Schedule s : shapes) {
            for (LogGopsParameters p : sets) {
                Path goal = dir.resolve(s.source() + ".goal");
                GoalWriter.write(s, goal);
                run(dir, bin.resolve("txt2bin").toString(), "-i", goal.toString(), "-o", dir.resolve("s.bin").toString());
                String out = run(dir, bin.resolve("LogGOPSim").toString(), "-f", dir.resolve("s.bin").toString(),
                        "-L", "" + p.latency(), "-o", "" + p.overhead(), "-g", "" + p.gap(),
                        "-G", "" + p.gapPerBytePs() / 1000, "-O", "" + p.overheadPerBytePs() / 1000, "-S", "" + p.eagerLimit());
                ReplayResult ours = new LogGopsReplay(s, p, PlainBytes.INSTANCE).run();
                List<long[]> theirs = new ArrayList<>();
                Matcher m = HOST.matcher(out);
                while (m.find()) theirs.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
                Matcher max = MAX.matcher(out);
                if (max.find()) theirs.add(new long[] {-1, Long.parseLong(max.group(2))});
                boolean equal = !theirs.isEmpty();
                long theirMax = 0;
                for (long[] h : theirs) {
                    theirMax = Math.max(theirMax, h[1]);
                    equal &= h[0] < 0 ? h[1] == ours.finishNs() : h[1] == ours.finishNs((int) h[0]);
                }
                System.out.printf("| %s | %d | %d | %s | %d | %d | %s | %s |%n", s.source(), s.ranks(), s.operations(), p,
                        theirMax, ours.finishNs(), theirs.size() == 1 && theirs.get(0)[0] < 0 ? "max only" : "all",
                        equal ? "yes" : "NO");
            }
        }
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
