package org.jspin.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.bench.anchors.AnchorResults;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The anchors' script ({@code run.sh} of the shared directory), run once per round as a child
 * process: what it prints is read as it comes, and its {@code RESULT} lines become
 * {@link AnchorResults}.
 */
final class AnchorsScript {
    /** Longest one run of the anchors may take (its two jobs have 150 s each). */
    static final Duration TIMEOUT = Duration.ofMinutes(10);
    /** How many of its last lines an error quotes. */
    private static final int TAIL_LINES = 10;

    private final Path runSh;
    private final Duration timeout;

    /**
     * @param runSh   the script
     * @param timeout how long one run may take before it is stopped
     */
    AnchorsScript(Path runSh, Duration timeout) {
        this.runSh = runSh;
        this.timeout = timeout;
    }

    /**
     * Runs the anchors once.
     *
     * @param what   run.sh's argument: pingpong, pingpong-shm or pack
     * @param labels the implementations' labels that must print figures
     * @throws MpiException ERR_OTHER if it prints no figures for one of {@code labels}, with its exit code
     *                      and its last lines, or if it outlives the timeout
     */
    AnchorResults run(String what, List<String> labels) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", runSh.toString(), what).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the process was stopped; what was read stands
            }
        });
        if (!p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " " + what + " ran longer than "
                    + span(timeout) + " and was stopped");
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        List<String> printed;
        synchronized (lines) {
            printed = List.copyOf(lines);
        }
        AnchorResults results = AnchorResults.parse(printed);
        List<String> missing = labels.stream().filter(l -> !results.labels().contains(l)).toList();
        if (!missing.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_OTHER, runSh + " " + what + " printed no figures for " + missing
                    + " (exit code " + p.exitValue() + "); it builds its programs with mpicc.openmpi and mpicc.mpich,"
                    + " which need Debian's libopenmpi-dev and libmpich-dev. Its last lines:"
                    + String.join("\n  ", tail(printed)));
        }
        return results;
    }

    /** @return "10 minutes", as an error names a timeout (in seconds where it is not whole minutes) */
    static String span(Duration d) {
        return d.toMinutes() > 0 && d.toSecondsPart() == 0 ? d.toMinutes() + " minutes" : d.toSeconds() + " seconds";
    }

    /** @return an empty first element (the lines start below the message), then the last lines or "(nothing)" */
    static List<String> tail(List<String> lines) {
        List<String> t = new ArrayList<>();
        t.add("");
        t.addAll(lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        if (lines.isEmpty()) {
            t.add("(nothing)");
        }
        return t;
    }
}
