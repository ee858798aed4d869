package org.jspin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin timeline}: the data path's flight-recorder events ({@code org.jspin.nic.events}) of
 * every rank's recording, summarised per rank and merged into one timeline by the events' monotonic
 * clock (the recordings' own times can be a millisecond apart between JVMs). The ranks of one
 * machine share that clock, so the merge shows what happened at the same time on both ends of a
 * transfer: whether a sender packs the next chunk while the last one is on the wire, or each
 * waits for the other.
 */
@Command(name = "timeline", mixinStandardHelpOptions = true,
        description = {"Summarises and merges the data path's flight-recorder events (jspin.Pack, jspin.Unpack,"
                + " jspin.FrameWrite, jspin.PayloadReceived) of the ranks' recordings: per rank and event, the count,"
                + " the median payload, the median and 90th-percentile durations and the median rate; then the last"
                + " events of all files in time order.",
                "Record them with JAVA_TOOL_OPTIONS='-XX:StartFlightRecording:filename=DIR/r%%p.jfr,"
                        + "+jspin.Pack#enabled=true,+jspin.Unpack#enabled=true,+jspin.FrameWrite#enabled=true,"
                        + "+jspin.PayloadReceived#enabled=true' before a jspin command (each JVM writes its own file)."})
final class TimelineCommand implements Callable<Integer> {
    private static final String PREFIX = "jspin.";

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE.jfr", description = "the ranks' recordings")
    private List<Path> files;

    @Option(names = "--tail", defaultValue = "40", description = "events of the timeline, the last ones (default: ${DEFAULT-VALUE})")
    private int tail;

    /** One event, reduced to what the tables print. */
    record Step(long start, long nanos, int rank, String event, long offset, long bytes, String detail) {
    }

    @Override
    public Integer call() throws IOException {
        if (tail < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "--tail must be non-negative, got " + tail);
        }
        List<Step> steps = new ArrayList<>();
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                throw new MpiException(ErrorClass.ERR_ARG, "no recording at " + f);
            }
            List<RecordedEvent> events;
            try {
                events = RecordingFile.readAllEvents(f);
            } catch (IOException e) {
                throw new MpiException(ErrorClass.ERR_ARG, f + " is not a flight recording: " + e.getMessage());
            }
            for (RecordedEvent e : events) {
                Step s = step(e);
                if (s != null) {
                    steps.add(s);
                }
            }
        }
        steps.sort(Comparator.comparingLong(Step::start));
        PrintWriter out = spec.commandLine().getOut();
        out.printf("jspin timeline: %d data path events in %d recording(s); durations in us, rates in GB/s (1e9 B/s)%n",
                steps.size(), files.size());
        if (steps.isEmpty()) {
            out.println("no jspin.* events: were they enabled? (see jspin timeline --help)");
            out.flush();
            return 1;
        }
        summary(out, steps);
        timeline(out, steps.subList(Math.max(0, steps.size() - tail), steps.size()));
        out.flush();
        return 0;
    }

    /** @return the step of a jspin event, or null for any other event */
    private static Step step(RecordedEvent e) {
        String name = e.getEventType().getName();
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        String event = name.substring(PREFIX.length());
        long nanos = e.getDuration().toNanos();
        return switch (event) {
            case "Pack", "Unpack" -> new Step(e.getLong("clock"), nanos, e.getInt("rank"), event, e.getLong("offset"),
                    e.getLong("bytes"), "");
            case "FrameWrite" -> new Step(e.getLong("clock"), nanos, e.getInt("source"), event, e.getLong("offset"),
                    e.getLong("payload"), e.getString("kind") + " to " + e.getInt("target")
                            + (e.getLong("pending") > 0 ? ", " + e.getLong("pending") + " B left queued" : ""));
            case "PayloadReceived" -> new Step(e.getLong("clock"), e.getLong("sinceHeader"), e.getInt("target"), event,
                    e.getLong("offset"), e.getLong("payload"), e.getString("kind") + " from " + e.getInt("source")
                            + (e.getBoolean("landed") ? ", landed" : ""));
            default -> null;
        };
    }

    private static void summary(PrintWriter out, List<Step> steps) {
        Map<String, List<Step>> groups = new TreeMap<>();
        for (Step s : steps) {
            groups.computeIfAbsent(String.format("%6d  %-16s", s.rank(), s.event()), k -> new ArrayList<>()).add(s);
        }
        out.printf("%n%6s  %-16s %8s %12s %9s %9s %9s%n", "rank", "event", "count", "bytes p50", "us p50", "us p90",
                "GB/s p50");
        for (Map.Entry<String, List<Step>> g : groups.entrySet()) {
            List<Step> l = g.getValue();
            long[] nanos = l.stream().mapToLong(Step::nanos).sorted().toArray();
            long[] bytes = l.stream().mapToLong(Step::bytes).sorted().toArray();
            double[] rates = l.stream().filter(s -> s.nanos() > 0).mapToDouble(s -> s.bytes() / (double) s.nanos())
                    .sorted().toArray();
            out.printf("%s %8d %12d %9.1f %9.1f %9s%n", g.getKey(), l.size(), bytes[bytes.length / 2],
                    nanos[nanos.length / 2] / 1e3, nanos[(int) (nanos.length * 0.9)] / 1e3,
                    rates.length == 0 ? "-" : String.format("%.2f", rates[rates.length / 2]));
        }
        out.println("(PayloadReceived: the time from the frame's header to its payload's last byte)");
    }

    private static void timeline(PrintWriter out, List<Step> shown) {
        if (shown.isEmpty()) {
            return;
        }
        long t0 = shown.get(0).start();
        out.printf("%nthe last %d events, times from the first of them:%n%10s %10s %6s  %-16s %10s %10s  %s%n",
                shown.size(), "start us", "dur us", "rank", "event", "offset", "bytes", "");
        for (Step s : shown) {
            out.printf("%10.1f %10.1f %6d  %-16s %10d %10d  %s%n", (s.start() - t0) / 1e3,
                    s.nanos() / 1e3, s.rank(), s.event(), s.offset(), s.bytes(), s.detail());
        }
    }
}
