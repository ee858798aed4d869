package org.jspin.replay.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;

/**
 * Reads a trace directory (docs/trace-format.md) into a {@link Schedule}: GOAL's operations and
 * dependencies, with each message's datatype and count kept beside it. Every {@code (ctx, tag)} pair
 * of the job becomes one GOAL tag, numbered in the order first met reading rank 0, 1, ...; receives
 * take the source and tag they matched. Malformed files get an {@link MpiException} (ERR_ARG)
 * naming the file and line.
 */
public final class TraceReader {
    /** As GoalReader's bound: more ranks than any replay holds. */
    private static final int MAX_RANKS = 1 << 24;

    private final Path dir;
    private final TraceTypes types = new TraceTypes();
    private final Map<Long, Integer> goalTags = new HashMap<>();

    private TraceReader(Path dir) {
        this.dir = dir;
    }

    /** @return the schedule the trace in {@code dir} records */
    public static Schedule read(Path dir) {
        return new TraceReader(dir).read();
    }

    /** @return whether {@code path} looks like a trace directory (it holds job.json or rank files) */
    public static boolean isTrace(Path path) {
        return Files.isDirectory(path) && (Files.exists(path.resolve("job.json")) || Files.exists(path.resolve("rank-0.trace")));
    }

    private Schedule read() {
        if (!Files.isDirectory(dir)) throw new MpiException(ErrorClass.ERR_ARG, "trace directory " + dir + " does not exist");
        Path job = dir.resolve("job.json");
        if (!Files.isRegularFile(job)) {
            throw new MpiException(ErrorClass.ERR_ARG, "trace " + dir + " has no job.json (rank 0 did not finish): refused");
        }
        int ranks = ranks(job);
        ScheduleBuilder b = new ScheduleBuilder(dir.toString(), ranks);
        for (int r = 0; r < ranks; r++) {
            Path file = dir.resolve("rank-" + r + ".trace");
            if (!Files.isRegularFile(file)) {
                throw new MpiException(ErrorClass.ERR_ARG, "trace " + dir + " has no " + file.getFileName()
                        + " (job.json names " + ranks + " ranks)");
            }
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                new RankTraceParser(file.toString(), r, ranks, b, types, goalTags).parse(in);
            } catch (IOException e) {
                throw new MpiException(ErrorClass.ERR_ARG, "cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return b.build();
    }

    private int ranks(Path job) {
        JsonNode node;
        try {
            node = DatatypeJson.mapper().readTree(job.toFile());
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, job + ": not JSON: " + e.getMessage(), e);
        }
        if (node == null || !"jspin-trace".equals(node.path("format").asText())) {
            throw new MpiException(ErrorClass.ERR_ARG, job + ": \"format\" is not \"jspin-trace\"");
        }
        if (node.path("version").asInt(-1) != 1) {
            throw new MpiException(ErrorClass.ERR_ARG, job + ": version " + node.path("version") + " is not 1");
        }
        int ranks = node.path("ranks").asInt(0);
        if (ranks < 1 || ranks > MAX_RANKS) {
            throw new MpiException(ErrorClass.ERR_ARG, job + ": \"ranks\" " + node.path("ranks") + " is not in 1.." + MAX_RANKS);
        }
        return ranks;
    }
}
