package org.jspin.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.bootstrap.launch.RankLauncher;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * {@code bench pingpong}'s cases between two processes, over shared memory or TCP: two JVMs started
 * as {@code jspin run} starts ranks ({@code jspin exec pingpong}), rank 0 handing its results back
 * in a file.
 */
final class ProcessPingPong {
    /** Longest a whole ping-pong job may take before its ranks are stopped. */
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private ProcessPingPong() {
    }

    /**
     * @param fabric     the fabric between the two processes ({@code shm} or {@code netty})
     * @param backend    the NIC backend
     * @param scale      multiplies each case's round trips
     * @param filter     only cases whose name matches, or null for all
     * @param eagerLimit the eager limit, or null for the NIC's
     * @param chunk      the rendezvous chunk, or null for the NIC's
     * @param binding    where the ranks run
     * @param log        where the ranks' output goes
     * @return rank 0's results, in the cases' order
     * @throws MpiException ERR_OTHER naming the exit code (and rank) if a rank fails
     */
    static List<PingPongResult> run(String fabric, String backend, double scale, String filter, Integer eagerLimit, Integer chunk,
            Binding binding, PrintStream log) throws IOException {
        Path results = Files.createTempFile("jspin-pingpong", ".json");
        try {
            List<String> program = List.of("pingpong", results.toString(), Double.toString(scale),
                    filter == null ? "-" : filter, eagerLimit == null ? "0" : eagerLimit.toString(),
                    chunk == null ? "0" : chunk.toString());
            RankLauncher.Result r = RankJob.run(2, program, Map.of("JSPIN_BACKEND", backend, "JSPIN_FABRIC", fabric), TIMEOUT, binding, log, log);
            if (r.exitCode() != 0) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the ping-pong ranks failed (exit code " + r.exitCode()
                        + (r.failedRank() >= 0 ? ", rank " + r.failedRank() : "") + ")");
            }
            return PingPongRank.read(results);
        } finally {
            Files.deleteIfExists(results);
        }
    }
}
