package org.jspin.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.jspin.bench.NameFilter;
import org.jspin.bench.pingpong.PingPong;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.NicConfig;

/**
 * One rank of {@code jspin bench pingpong} across processes ({@code jspin exec pingpong}): both
 * ranks run the cases, and rank 0 writes the results as JSON to the file the launching command
 * reads them from.
 *
 * <p>Arguments: {@code RESULTS_FILE SCALE FILTER EAGER_LIMIT CHUNK}, where FILTER is {@code -}
 * for every case and the limits are {@code 0} for the NIC's defaults.
 */
public final class PingPongRank {
    private PingPongRank() {
    }

    /** Entry point of one rank. */
    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: PingPongRank RESULTS_FILE SCALE FILTER EAGER_LIMIT CHUNK, got "
                    + List.of(args));
        }
        Path results = Path.of(args[0]);
        double scale = Double.parseDouble(args[1]);
        String filter = args[2].equals("-") ? null : args[2];
        int eager = Integer.parseInt(args[3]);
        int chunk = Integer.parseInt(args[4]);
        MpiOptions options = MpiOptions.fromEnvironment();
        NicConfig nic = options.nic();
        if (chunk > 0) {
            nic = nic.withChunkSize(chunk);
        }
        if (eager > 0) {
            nic = nic.withEagerLimit(eager);
        }
        List<PingPongCase> cases = PingPongCase.standard(scale).stream()
                .filter(NameFilter.of(filter).on(PingPongCase::name)).toList();
        try (Mpi mpi = Mpi.init(options.withNic(nic))) {
            List<PingPongResult> r = PingPong.run(mpi, cases);
            if (mpi.rank() == 0) {
                write(results, r);
            }
        }
    }

    static void write(Path file, List<PingPongResult> results) throws IOException {
        Files.writeString(file, new ObjectMapper().writeValueAsString(results));
    }

    static List<PingPongResult> read(Path file) throws IOException {
        ObjectMapper m = new ObjectMapper();
        return List.of(m.readValue(Files.readString(file), PingPongResult[].class));
    }
}
