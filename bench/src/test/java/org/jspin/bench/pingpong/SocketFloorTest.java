package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SocketFloorTest {
    /** Both roles over a loopback connection, on two threads. */
    private static List<PingPongResult> runPair(List<PingPongCase> cases) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<List<PingPongResult>> echo = CompletableFuture.supplyAsync(() -> {
                try (SocketChannel ch = server.accept()) {
                    return SocketFloor.run(ch, false, cases);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SocketChannel ch = SocketChannel.open(server.getLocalAddress())) {
                List<PingPongResult> r = SocketFloor.run(ch, true, cases);
                assertTrue(echo.get(60, TimeUnit.SECONDS).isEmpty(), "the echoing side reports nothing");
                return r;
            }
        }
    }

    @Test
    void measuresEveryContiguousCaseAndSkipsTheVector() throws Exception {
        List<PingPongCase> cases = PingPongCase.standard(0.01);
        List<PingPongResult> r = runPair(cases);
        List<String> expected = cases.stream().filter(SocketFloor::covers).map(PingPongCase::name).toList();
        assertEquals(expected, r.stream().map(PingPongResult::name).toList());
        assertFalse(expected.contains("bw_4MiB_vector_64B_stride_128B"));
        assertTrue(expected.contains("stream_4MiB") && expected.contains("latency_1B"));
        for (PingPongResult x : r) {
            assertTrue(x.p50Micros() > 0 && x.p50Micros() <= x.p90Micros() && x.p90Micros() <= x.p99Micros(),
                    "percentiles of " + x);
            assertTrue(x.gbps() > 0, "bandwidth of " + x);
            assertTrue(x.cores().probed(), "split by the probes: " + x);
        }
    }

    @Test
    void aScaleThatIsNotAPositiveNumberIsNamed() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            MpiException e = assertThrows(MpiException.class,
                    () -> PingPongCase.standard(bad));
            assertEquals(ErrorClass.ERR_ARG, e.errorClass());
            assertTrue(e.getMessage().contains(Double.toString(bad)), e.getMessage());
        }
    }

    @Test
    void aMessageThatComesBackChangedFails() throws Exception {
        PingPongCase c = PingPongCase.standard(0.01).get(3); // bw_64KiB
        int n = (int) c.bytes();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<Void> corrupting = CompletableFuture.runAsync(() -> {
                try (SocketChannel ch = server.accept(); CorePairProbe probe = answerProbe(ch)) {
                    ByteBuffer b = ByteBuffer.allocate(n);
                    while (b.hasRemaining()) {
                        ch.read(b);
                    }
                    b.put(n / 2, (byte) (b.get(n / 2) + 1));
                    b.flip();
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SocketChannel ch = SocketChannel.open(server.getLocalAddress())) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> SocketFloor.run(ch, true, List.of(c)));
                assertTrue(e.getMessage().contains("at byte " + n / 2), e.getMessage());
            }
            corrupting.get(30, TimeUnit.SECONDS);
        }
    }

    /** What the echoing side of {@link SocketFloor#run} does first: map the initiator's probe and say so. */
    private static CorePairProbe answerProbe(SocketChannel ch) throws IOException {
        ByteBuffer length = ByteBuffer.allocate(4);
        while (length.hasRemaining()) {
            ch.read(length);
        }
        ByteBuffer name = ByteBuffer.allocate(length.getInt(0));
        while (name.hasRemaining()) {
            ch.read(name);
        }
        CorePairProbe probe = CorePairProbe.open(Path.of(new String(name.array(), StandardCharsets.UTF_8)), false);
        ch.write(ByteBuffer.wrap(new byte[1]));
        return probe.warmedUp();
    }

    @Test
    void aPeerThatLeavesEarlyIsAnError() throws Exception {
        PingPongCase c = PingPongCase.standard(0.01).get(4); // bw_1MiB
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<Void> leaving = CompletableFuture.runAsync(() -> {
                try (SocketChannel ch = server.accept()) {
                    ch.read(ByteBuffer.allocate(1000));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SocketChannel ch = SocketChannel.open(server.getLocalAddress())) {
                IOException e = assertThrows(IOException.class, () -> SocketFloor.run(ch, true, List.of(c)));
                assertTrue(e.getMessage() != null, "an error that says what happened");
            }
            leaving.get(30, TimeUnit.SECONDS);
        }
    }
}
