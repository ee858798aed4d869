package org.jspin.bench.pingpong;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.jspin.datatype.cursor.TypeCursor;

/**
 * The floor under {@link PingPong} over TCP: its cases bounced over one socket with nothing else in
 * the way (no engine, no framing, no event loop, no matching). The measuring thread busy-polls a
 * non-blocking socket ({@link RawTcpSocket}, on the congestion control jspin's fabric gives a
 * connection within one host), buffers are native, and a contiguous message goes out in writes of
 * at most {@link #WRITE_BYTES}. A message of a derived datatype (the 4 MiB vector) is packed by
 * jspin's datatype engine into a staging buffer {@link #PACKED_CHUNK_BYTES} at a time, each chunk
 * written as it is packed, and read into the receiver's staging buffer a chunk at a time and unpacked
 * from it: the pack, the socket's two copies and the unpack, as any runtime that packs must do them,
 * without a runtime. Run between the same two processes as jspin's figures (same JVM flags, same
 * binding), it says what the JVM and the kernel cost per message in that run, so that a ratio to it
 * says how much the runtime adds on a machine whose speed drifts between runs.
 *
 * <p>Rank 0 ({@code initiator}) times each round trip (or window) into an HdrHistogram, as
 * {@link PingPong} does, after a warm-up of half as many rounds. The first round trip of each
 * ping-pong case checks that the bytes came back unchanged.
 */
public final class SocketFloor {
    /**
     * Bytes per write of a contiguous message: what jspin's Netty fabric writes at once at most when
     * it holds chunks sent in place ({@code -Djspin.netty.flushBytes}, 2 MiB): over loopback, writes
     * of 2 MiB streamed faster than writes of 256 KiB (docs/PERFORMANCE.md).
     */
    public static final int WRITE_BYTES = 2 << 20;
    /** Packed bytes per chunk of a derived datatype's message: jspin's Netty fabric's chunk. */
    public static final int PACKED_CHUNK_BYTES = 512 << 10;

    private SocketFloor() {
    }

    /**
     * Runs {@code cases} over {@code socket}, connected to the peer running the same cases with the
     * other role.
     *
     * @param socket    a connected, non-blocking socket
     * @param initiator whether this side sends first and measures (the other echoes)
     * @return the initiator's results, in case order; an empty list for the other side
     * @throws IOException if the connection fails, or ends early
     * @throws IllegalStateException if a message came back changed
     */
    public static List<PingPongResult> run(RawTcpSocket socket, boolean initiator, List<PingPongCase> cases)
            throws IOException {
        List<PingPongResult> results = new ArrayList<>();
        List<CoreStates> states = new ArrayList<>();
        try (Arena probeArena = Arena.ofConfined();
             CorePairProbe probe = probe(socket, initiator, probeArena.allocate(1))) {
            for (PingPongCase c : cases) {
                try (Arena arena = Arena.ofConfined()) {
                    Message m = new Message(socket, c, arena);
                    if (initiator) {
                        m.checkEcho();
                    } else {
                        m.echo();
                    }
                    Histogram scratch = new Histogram(3);
                    bounce(m, initiator, c, Math.max(50, c.iterations() / 2), scratch, null, null);
                    Histogram h = new Histogram(3);
                    double per = c.streaming() ? 1e3 : 2e3;
                    CoreStates blocks = new CoreStates(c.iterations(), per);
                    bounce(m, initiator, c, c.iterations(), h, probe, blocks);
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
        }
        return CoreStates.split(results, states);
    }

    /**
     * The cross-core probe both sides share: the initiator makes its file and sends the path; the
     * other side maps it and answers with one byte, after which the file is deleted.
     */
    private static CorePairProbe probe(RawTcpSocket socket, boolean initiator, MemorySegment ack) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment length = arena.allocate(4);
            if (initiator) {
                Path file = CorePairProbe.createFile();
                try {
                    byte[] name = file.toString().getBytes(StandardCharsets.UTF_8);
                    length.set(ValueLayout.JAVA_INT_UNALIGNED, 0, name.length);
                    send(socket, length, 4);
                    send(socket, arena.allocateFrom(ValueLayout.JAVA_BYTE, name), name.length);
                    CorePairProbe probe = CorePairProbe.open(file, true);
                    receive(socket, ack, 0, 1);
                    return probe.warmedUp();
                } finally {
                    Files.deleteIfExists(file);
                }
            }
            receive(socket, length, 0, 4);
            MemorySegment name = arena.allocate(length.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            receive(socket, name, 0, name.byteSize());
            CorePairProbe probe = CorePairProbe.open(Path.of(new String(name.toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8)), false);
            send(socket, ack, 1);
            return probe.warmedUp();
        }
    }

    /** As {@link PingPong}'s: with a probe, in blocks each after a probe both sides take. */
    private static void bounce(Message m, boolean initiator, PingPongCase c, int rounds, Histogram h,
                               CorePairProbe probe, CoreStates blocks) throws IOException {
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
                    for (int w = 0; w < c.window(); w++) {
                        m.send();
                    }
                    m.receiveAck();
                } else {
                    m.send();
                    m.receive();
                }
                long t = System.nanoTime() - t0;
                h.recordValue(t);
                if (blocks != null) {
                    blocks.record(t);
                }
            } else if (c.streaming()) {
                for (int w = 0; w < c.window(); w++) {
                    m.receive();
                }
                m.sendAck();
            } else {
                m.receive();
                m.send();
            }
        }
    }

    /**
     * One case's message and the buffers it moves through: its buffer (the case's type map, or
     * its bytes if contiguous), a staging buffer for a derived datatype, a one-byte ack, all made
     * once per case so that a round trip allocates nothing.
     */
    private static final class Message {
        private final RawTcpSocket socket;
        private final PingPongCase c;
        private final long bytes;
        private final MemorySegment buffer;
        /** Null for a contiguous message, which goes to and from {@link #buffer} itself. */
        private final TypeCursor cursor;
        private final MemorySegment staging;
        private final MemorySegment ack;

        Message(RawTcpSocket socket, PingPongCase c, Arena arena) {
            this.socket = socket;
            this.c = c;
            this.bytes = c.bytes();
            this.buffer = arena.allocate(Math.max(1, c.bufferBytes()), 64);
            boolean contiguous = c.bytes() == c.bufferBytes();
            this.cursor = contiguous ? null : c.type().cursor(c.count(), buffer);
            this.staging = contiguous ? null : arena.allocate(Math.min(bytes, PACKED_CHUNK_BYTES), 64);
            this.ack = arena.allocate(1);
        }

        void send() throws IOException {
            if (cursor == null) {
                SocketFloor.send(socket, buffer, bytes);
                return;
            }
            cursor.seek(0);
            for (long at = 0; at < bytes; ) {
                long n = cursor.pack(staging, 0, Math.min(PACKED_CHUNK_BYTES, bytes - at));
                SocketFloor.send(socket, staging, n);
                at += n;
            }
        }

        void receive() throws IOException {
            if (cursor == null) {
                SocketFloor.receive(socket, buffer, 0, bytes);
                return;
            }
            cursor.seek(0);
            for (long at = 0; at < bytes; ) {
                long n = Math.min(PACKED_CHUNK_BYTES, bytes - at);
                SocketFloor.receive(socket, staging, 0, n);
                cursor.unpack(staging, 0, n);
                at += n;
            }
        }

        void sendAck() throws IOException {
            SocketFloor.send(socket, ack, 1);
        }

        void receiveAck() throws IOException {
            SocketFloor.receive(socket, ack, 0, 1);
        }

        /** One round trip of a pattern, compared (as packed bytes) when it comes back. */
        void checkEcho() throws IOException {
            for (long i = 0; i < buffer.byteSize(); i++) {
                buffer.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            MemorySegment sent = packed();
            send();
            buffer.fill((byte) 0);
            receive();
            long at = sent.mismatch(packed());
            if (at >= 0) {
                throw new IllegalStateException("the " + bytes + "-byte message " + c.name()
                        + " came back changed at byte " + at);
            }
        }

        void echo() throws IOException {
            receive();
            send();
        }

        /** A copy of the message as packed bytes (a contiguous message's bytes themselves). */
        private MemorySegment packed() {
            MemorySegment p = MemorySegment.ofArray(new byte[(int) bytes]);
            if (cursor == null) {
                MemorySegment.copy(buffer, 0, p, 0, bytes);
            } else {
                c.type().pack(c.count(), buffer, p);
            }
            return p;
        }
    }

    /** Writes bytes [0, n) of {@code from}, {@link #WRITE_BYTES} at a time, spinning while the socket is full. */
    private static void send(RawTcpSocket socket, MemorySegment from, long n) throws IOException {
        for (long at = 0; at < n; ) {
            at += socket.write(from, at, Math.min(n - at, WRITE_BYTES));
        }
    }

    /** Reads bytes [offset, offset + n) of {@code into}, spinning until they are there. */
    private static void receive(RawTcpSocket socket, MemorySegment into, long offset, long n) throws IOException {
        for (long at = 0; at < n; ) {
            at += socket.read(into, offset + at, n - at);
        }
    }
}
