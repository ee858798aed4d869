package org.jspin.cli;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

import org.jspin.bench.NameFilter;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.bench.pingpong.RawTcpSocket;
import org.jspin.bench.pingpong.SocketFloor;
import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.MpiOptions;
import org.jspin.transport.netty.NettyFabricProvider;

/**
 * One rank of {@code jspin bench tcpfloor} ({@code jspin exec tcpfloor}): the two ranks of a
 * jspin job, started and bound as {@code jspin bench pingpong} starts them, open a socket of their
 * own on 127.0.0.1 (rank 1 listens and sends its port to rank 0 over the job's fabric) and run
 * {@link SocketFloor} over it; rank 0 writes the results as JSON to the file the launching command
 * reads them from.
 *
 * <p>Arguments: {@code RESULTS_FILE SCALE FILTER}, where FILTER is {@code -} for every case.
 */
public final class SocketFloorRank {
    private static final int PORT_TAG = 11;

    private SocketFloorRank() {
    }

    /** Entry point of one rank. */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: SocketFloorRank RESULTS_FILE SCALE FILTER, got " + List.of(args));
        }
        Path results = Path.of(args[0]);
        double scale = Double.parseDouble(args[1]);
        String filter = args[2].equals("-") ? null : args[2];
        List<PingPongCase> cases = PingPongCase.standard(scale).stream()
                .filter(NameFilter.of(filter).on(PingPongCase::name)).toList();
        try (Mpi mpi = Mpi.init(MpiOptions.fromEnvironment())) {
            Comm w = mpi.world();
            if (w.size() != 2) {
                throw new IllegalArgumentException("tcpfloor needs exactly 2 ranks, got " + w.size());
            }
            MemorySegment port = MemorySegment.ofArray(new int[1]);
            List<PingPongResult> r;
            if (w.rank() == 1) {
                try (RawTcpSocket server = RawTcpSocket.listenLoopback()) {
                    port.set(ValueLayout.JAVA_INT, 0, server.port());
                    w.send(port, 1, Datatype.INT, 0, PORT_TAG);
                    try (RawTcpSocket socket = server.accept()) {
                        r = floor(socket, false, cases);
                    }
                }
            } else {
                w.recv(port, 1, Datatype.INT, 1, PORT_TAG);
                try (RawTcpSocket socket = RawTcpSocket.connectLoopback(port.get(ValueLayout.JAVA_INT, 0))) {
                    r = floor(socket, true, cases);
                }
                PingPongRank.write(results, r);
            }
            w.barrier();
        }
    }

    /**
     * Sets the socket up as the Netty fabric sets up a connection between two ranks of one host:
     * {@code TCP_NODELAY}, and the congestion control {@code -Djspin.netty.congestion} names
     * (as {@link NettyFabricProvider#congestionWithinHost} says).
     */
    private static List<PingPongResult> floor(RawTcpSocket socket, boolean initiator, List<PingPongCase> cases)
            throws IOException {
        socket.noDelay();
        String congestion = NettyFabricProvider.congestionWithinHost(); // as the fabric would set it
        if (!congestion.equals("system")) {
            socket.congestionControl(congestion);
        }
        return SocketFloor.run(socket, initiator, cases);
    }
}
