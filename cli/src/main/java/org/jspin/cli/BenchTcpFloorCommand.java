package org.jspin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.bench.NameFilter;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.bench.pingpong.SocketFloor;
import org.jspin.bootstrap.launch.RankLauncher;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jspin bench tcpfloor}: the floor under {@code jspin bench pingpong --fabric netty}, its
 * cases over a bare socket between two ranks started and bound the same way (the vector packed and
 * unpacked by the datatype engine through staging buffers, as any runtime that packs moves it).
 */
@Command(name = "tcpfloor", mixinStandardHelpOptions = true,
        description = "The floor under 'bench pingpong --fabric netty': its cases (latency, ping-pong and "
                + "streaming bandwidth, the vector packed and unpacked through staging) bounced over a bare TCP "
                + "socket on 127.0.0.1 between two processes started and bound as that command starts them, "
                + "busy-polled, with no runtime in the way; measured on this machine, to be compared with jspin's "
                + "figures in the same run.")
final class BenchTcpFloorCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private CaseOptions common = new CaseOptions();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        // a bad scale or a filter that selects nothing is named here, not as a failure of the ranks
        NameFilter.of(common.filter).select(PingPongCase.standard(common.scale), PingPongCase::name);
        if (!common.json) {
            out.printf("jspin bench tcpfloor: 2 processes, a bare TCP socket on 127.0.0.1 (bound to %s), non-blocking,"
                    + " busy-polled, writes of at most %d B, a vector packed and unpacked %d B at a time through staging;"
                    + " one-way time = half a round trip; stream_* = a window of messages and a 1-byte ack, time per"
                    + " window%n", common.binding, SocketFloor.WRITE_BYTES, SocketFloor.PACKED_CHUNK_BYTES);
            PingPongOutput.header(out);
        }
        PingPongOutput.results(out, measure(common.scale, common.filter, common.binding), common.json, "none", "tcp-socket");
        return 0;
    }

    /**
     * Runs the floor's ranks once.
     *
     * @param filter only cases whose name matches, or null for all
     * @return rank 0's results, in case order
     * @throws MpiException ERR_OTHER if a rank failed
     */
    static List<PingPongResult> measure(double scale, String filter, Binding binding) throws IOException {
        Path results = Files.createTempFile("jspin-tcpfloor", ".json");
        try {
            List<String> program = List.of("tcpfloor", results.toString(), Double.toString(scale),
                    filter == null ? "-" : filter);
            RankLauncher.Result r = RankJob.run(2, program, Map.of(), Duration.ofMinutes(30), binding, System.err,
                    System.err);
            if (r.exitCode() != 0) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the tcpfloor ranks failed (exit code " + r.exitCode()
                        + (r.failedRank() >= 0 ? ", rank " + r.failedRank() : "") + ")");
            }
            return PingPongRank.read(results);
        } finally {
            Files.deleteIfExists(results);
        }
    }
}
