package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SocketFloorTest {
    /** What a peer does with its end of the connection, on another thread. */
    @FunctionalInterface
    private interface Peer<T> {
        T run(RawTcpSocket socket) throws IOException;
    }

    /** {@code peer} on an accepted connection, {@code initiator} on the connecting end. */
    private static <T> T connected(Peer<?> peer, Peer<T> initiator) throws Exception {
        try (RawTcpSocket server = RawTcpSocket.listenLoopback()) {
            CompletableFuture<Object> other = CompletableFuture.supplyAsync(() -> {
                try (RawTcpSocket s = server.accept()) {
                    return peer.run(s);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (RawTcpSocket s = RawTcpSocket.connectLoopback(server.port())) {
                T r = initiator.run(s);
                other.get(60, TimeUnit.SECONDS);
                return r;
            }
        }
    }

    @Test
    void measuresEveryCaseTheVectorIncluded() throws Exception {
        List<PingPongCase> cases = PingPongCase.standard(0.01);
        List<PingPongResult> r = connected(s -> {
            assertTrue(SocketFloor.run(s, false, cases).isEmpty(), "the echoing side reports nothing");
            return null;
        }, s -> SocketFloor.run(s, true, cases));
        assertEquals(cases.stream().map(PingPongCase::name).toList(), r.stream().map(PingPongResult::name).toList());
        assertTrue(r.stream().anyMatch(x -> x.name().equals("bw_4MiB_vector_64B_stride_128B")));
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

    /** The 64 KiB contiguous case and the 4 MiB vector (packed bytes through staging). */
    @ParameterizedTest
    @ValueSource(strings = {"bw_64KiB", "bw_4MiB_vector_64B_stride_128B"})
    void aMessageThatComesBackChangedFails(String name) throws Exception {
        PingPongCase c = PingPongCase.standard(0.01).stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow();
        long n = c.bytes();
        IllegalStateException e = connected(s -> {
            try (Arena arena = Arena.ofConfined(); CorePairProbe probe = answerProbe(s)) {
                MemorySegment b = arena.allocate(n);
                readFully(s, b, n);
                b.set(ValueLayout.JAVA_BYTE, n / 2, (byte) (b.get(ValueLayout.JAVA_BYTE, n / 2) + 1));
                writeFully(s, b, n);
            }
            return null;
        }, s -> assertThrows(IllegalStateException.class, () -> SocketFloor.run(s, true, List.of(c))));
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains("at byte " + n / 2), e.getMessage());
    }

    /** What the echoing side of {@link SocketFloor#run} does first: map the initiator's probe and say so. */
    private static CorePairProbe answerProbe(RawTcpSocket s) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment length = arena.allocate(4);
            readFully(s, length, 4);
            MemorySegment name = arena.allocate(length.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            readFully(s, name, name.byteSize());
            CorePairProbe probe = CorePairProbe.open(Path.of(new String(name.toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8)), false);
            writeFully(s, arena.allocate(1), 1);
            return probe.warmedUp();
        }
    }

    @Test
    void aPeerThatLeavesEarlyIsAnError() throws Exception {
        PingPongCase c = PingPongCase.standard(0.01).get(4); // bw_1MiB
        IOException e = connected(s -> {
            try (Arena arena = Arena.ofConfined()) { // takes the start of the probe's set-up, then leaves
                MemorySegment some = arena.allocate(1000);
                while (s.read(some, 0, some.byteSize()) == 0) {
                    Thread.onSpinWait();
                }
            }
            return null;
        }, s -> assertThrows(IOException.class, () -> SocketFloor.run(s, true, List.of(c))));
        assertTrue(e.getMessage() != null, "an error that says what happened");
    }

    private static void readFully(RawTcpSocket s, MemorySegment into, long n) throws IOException {
        for (long at = 0; at < n; ) {
            at += s.read(into, at, n - at);
        }
    }

    private static void writeFully(RawTcpSocket s, MemorySegment from, long n) throws IOException {
        for (long at = 0; at < n; ) {
            at += s.write(from, at, n - at);
        }
    }
}
