package org.jspin.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.bench.pack.BenchJvm;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pack.SharedDir;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One launch of {@code jspin bench pack --json}, as {@code ./jspin bench pack} starts it (the
 * measuring heap flags, the Vector API), in a JVM of its own: the steadiness bar is about
 * launches, each with its own JIT history.
 */
final class FreshPackJvm {
    private FreshPackJvm() {
    }

    /**
     * @param filter  the cases to measure ({@code bench pack --filter})
     * @param timeout how long the launch may take before it is stopped
     * @return the results it printed, in its order
     * @throws MpiException ERR_OTHER if it fails or outlives {@code timeout}
     */
    static List<PackResult> run(String filter, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command(filter)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            p.destroyForcibly();
            throw new MpiException(ErrorClass.ERR_OTHER, "jspin bench pack ran longer than "
                    + AnchorsScript.span(timeout) + " and was stopped");
        }
        if (p.exitValue() != 0) {
            throw new MpiException(ErrorClass.ERR_OTHER, "jspin bench pack failed (exit code " + p.exitValue() + ")");
        }
        return parse(json);
    }

    /** @return the child's command line: this Java, the runtime's and the measuring flags, {@code jspin bench pack} */
    static List<String> command(String filter) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        command.addAll(RankJob.runtimeFlags(false)); // BenchJvm's flags add the Vector API's module
        command.addAll(BenchJvm.flags());
        command.add("-D" + SharedDir.PROPERTY + "=" + SharedDir.locate());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of("bench", "pack", "--json", "--filter", filter));
        return command;
    }

    /** @return the results of {@code jspin bench pack --json}'s array */
    static List<PackResult> parse(String json) throws IOException {
        List<PackResult> out = new ArrayList<>();
        for (JsonNode n : DatatypeJson.mapper().readTree(json)) {
            out.add(new PackResult(n.get("name").asText(), n.get("block_bytes").asDouble(),
                    n.get("pack_gbps").asDouble(), n.get("unpack_gbps").asDouble(), n.get("copy_gbps").asDouble()));
        }
        return out;
    }
}
