package org.jspin.bench.pingpong;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * The floor under {@link PingPong} over TCP: its contiguous cases bounced over one socket with
 * nothing else in the way (no engine, no framing, no event loop, no matching). The measuring
 * thread busy-polls a non-blocking channel, buffers are direct, and a message goes out in writes
 * of at most {@link #WRITE_BYTES}. Run between the same two processes as jspin's figures (same
 * JVM flags, same binding), it says what the JVM and the kernel cost per message in that run, so
 * that a ratio to it says how much the runtime adds on a machine whose speed drifts between runs.
 *
 * <p>Rank 0 ({@code initiator}) times each round trip (or window) into an HdrHistogram, as
 * {@link PingPong} does, after a warm-up of half as many rounds. The first round trip of each
 * ping-pong case checks that the bytes came back unchanged.
 */
public final class SocketFloor {
    /**
     * Bytes per write. Measured on the machine (2 processes bound to cores, 1 MiB and
     * 4 MiB ping-pong over loopback, direct buffers, 3 interleaved rounds): 256 KiB writes ran at
     * 8-10 GB/s in most launches where whole 1 MiB or 4 MiB writes ran at 4-7 and 64 KiB writes at
     * about 6; a large write's segments reach the receiver mostly as the write ends, so smaller
     * writes let the two copies overlap. jspin's own chunk size (256 KiB) sizes its writes the same way.
     */
    public static final int WRITE_BYTES = 256 << 10;

    private SocketFloor() {
    }

    /** @return whether the floor has this case: a message of contiguous bytes (not a vector) */
    public static boolean covers(PingPongCase c) {
        return c.bytes() == c.bufferBytes();
    }

    /**
     * Runs the cases it {@link #covers} over {@code channel}, connected to the peer running the same
     * cases with the other role.
     *
     * @param channel   a connected socket channel (made non-blocking here)
     * @param initiator whether this side sends first and measures (the other echoes)
     * @return the initiator's results, in case order; an empty list for the other side
     * @throws IOException if the connection fails, or ends early
     * @throws IllegalStateException if a message came back changed
     */
    public static List<PingPongResult> run(SocketChannel channel, boolean initiator, List<PingPongCase> cases)
            throws IOException {
        channel.configureBlocking(false);
        List<PingPongResult> results = new ArrayList<>();
        List<CoreStates> states = new ArrayList<>();
        ByteBuffer ack = ByteBuffer.allocateDirect(1);
        try (CorePairProbe probe = probe(channel, initiator, ack)) {
            for (PingPongCase c : cases) {
                if (!covers(c)) {
                    continue;
                }
                ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.max(1, c.bytes()));
                if (initiator) {
                    checkEcho(channel, buf, c.bytes());
                } else {
                    echo(channel, buf, c.bytes());
                }
                Histogram scratch = new Histogram(3);
                bounce(channel, initiator, c, buf, ack, Math.max(50, c.iterations() / 2), scratch, null, null);
                Histogram h = new Histogram(3);
                double per = c.streaming() ? 1e3 : 2e3;
                CoreStates blocks = new CoreStates(c.iterations(), per);
                bounce(channel, initiator, c, buf, ack, c.iterations(), h, probe, blocks);
                if (initiator) {
                    long bytes = c.streaming() ? c.bytes() * c.window() : c.bytes();
                    double p50 = h.getValueAtPercentile(50) / per;
                    results.add(new PingPongResult(c.name(), c.bytes(), c.iterations(), p50,
                            h.getValueAtPercentile(90) / per, h.getValueAtPercentile(99) / per,
                            bytes / (p50 * 1e3)));
                    states.add(blocks);
                }
            }
        }
        return CoreStates.split(results, states);
    }

    /**
     * The cross-core probe both sides share: the initiator makes its file and sends the path; the
     * other side maps it and answers with one byte, after which the file is deleted.
     */
    private static CorePairProbe probe(SocketChannel ch, boolean initiator, ByteBuffer ack) throws IOException {
        ByteBuffer length = ByteBuffer.allocate(4);
        if (initiator) {
            Path file = CorePairProbe.createFile();
            try {
                byte[] name = file.toString().getBytes(StandardCharsets.UTF_8);
                length.putInt(0, name.length);
                send(ch, length, 4);
                send(ch, ByteBuffer.wrap(name), name.length);
                CorePairProbe probe = CorePairProbe.open(file, true);
                receive(ch, ack, 1);
                return probe.warmedUp();
            } finally {
                Files.deleteIfExists(file);
            }
        }
        receive(ch, length, 4);
        ByteBuffer name = ByteBuffer.allocate(length.getInt(0));
        receive(ch, name, name.capacity());
        CorePairProbe probe = CorePairProbe.open(Path.of(new String(name.array(), StandardCharsets.UTF_8)), false);
        send(ch, ack, 1);
        return probe.warmedUp();
    }

    /** One round trip of a pattern, compared when it comes back. */
    private static void checkEcho(SocketChannel ch, ByteBuffer buf, long bytes) throws IOException {
        int n = (int) bytes;
        for (int i = 0; i < n; i++) {
            buf.put(i, (byte) (i * 31 + 7));
        }
        send(ch, buf, n);
        buf.clear();
        for (int i = 0; i < n; i++) {
            buf.put(i, (byte) 0);
        }
        receive(ch, buf, n);
        for (int i = 0; i < n; i++) {
            if (buf.get(i) != (byte) (i * 31 + 7)) {
                throw new IllegalStateException("the " + n + "-byte message came back changed at byte " + i);
            }
        }
    }

    private static void echo(SocketChannel ch, ByteBuffer buf, long bytes) throws IOException {
        receive(ch, buf, (int) bytes);
        send(ch, buf, (int) bytes);
    }

    /** As {@link PingPong}'s: with a probe, in blocks each after a probe both sides take. */
    private static void bounce(SocketChannel ch, boolean initiator, PingPongCase c, ByteBuffer buf, ByteBuffer ack,
                               int rounds, Histogram h, CorePairProbe probe, CoreStates blocks) throws IOException {
        int n = (int) c.bytes();
        int block = CoreStates.blockRounds(rounds);
        for (int i = 0; i < rounds; i++) {
            if (probe != null && i % block == 0) {
                double p = probe.roundTripNanos();
                if (initiator) {
                    blocks.startBlock(p);
                }
            }
            if (initiator) {
                long t0 = System.nanoTime();
                if (c.streaming()) {
                    for (int m = 0; m < c.window(); m++) {
                        send(ch, buf, n);
                    }
                    receive(ch, ack, 1);
                } else {
                    send(ch, buf, n);
                    receive(ch, buf, n);
                }
                long t = System.nanoTime() - t0;
                h.recordValue(t);
                if (blocks != null) {
                    blocks.record(t);
                }
            } else if (c.streaming()) {
                for (int m = 0; m < c.window(); m++) {
                    receive(ch, buf, n);
                }
                send(ch, ack, 1);
            } else {
                receive(ch, buf, n);
                send(ch, buf, n);
            }
        }
    }

    /** Writes bytes [0, n) of {@code buf}, {@link #WRITE_BYTES} at a time, spinning while the socket is full. */
    private static void send(SocketChannel ch, ByteBuffer buf, int n) throws IOException {
        for (int at = 0; at < n; ) {
            int end = Math.min(n, at + WRITE_BYTES);
            buf.limit(end).position(at);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            at = end;
        }
    }

    /** Reads exactly {@code n} bytes into {@code buf}, spinning until they are there. */
    private static void receive(SocketChannel ch, ByteBuffer buf, int n) throws IOException {
        buf.limit(n).position(0);
        while (buf.hasRemaining()) {
            if (ch.read(buf) < 0) {
                throw new EOFException("the peer closed the connection with " + buf.remaining() + " of " + n
                        + " bytes to come");
            }
        }
    }
}
