package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.agrona.concurrent.CachedNanoClock;
import org.jspin.datatype.Datatype;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.NicConfig;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.jspin.nic.fabric.embedded.EmbeddedNetwork;
import org.jspin.nic.match.MatchBits;

/**
 * A few protocol cores wired to each other over an embedded network, stepped by hand: one
 * {@link RecordingDataPath} per rank, one meter registry, one clock a test moves. Also a record
 * of every packet the network carries ("EAGER 0>1", "DATA 0>1 @256+256", ...).
 */
final class CoreRig {
    /** The communicator context every message of these tests travels in. */
    static final int CONTEXT = 3;
    /** Small limits, so that a few hundred bytes already take the rendezvous path in several chunks. */
    static final NicConfig SMALL = new NicConfig(64, 256, 16, true);

    final EmbeddedNetwork network;
    final CachedNanoClock clock = new CachedNanoClock();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<String> wire = new ArrayList<>();
    private final List<ProtocolCore<String, String>> cores = new ArrayList<>();
    private final List<RecordingDataPath> paths = new ArrayList<>();
    private final IntSupplier[] rounds;

    CoreRig(int size) {
        this(size, SMALL);
    }

    CoreRig(int size, NicConfig config) {
        this(size, config, 0);
    }

    /** @param wholeData what every endpoint prefers to send as one DATA packet ({@link EmbeddedFabric#preferWholeData}) */
    CoreRig(int size, NicConfig config, int wholeData) {
        this(size, config, wholeData, NicConfig.DEFAULT_CHUNK_SIZE);
    }

    /** @param chunkSize every endpoint's preferred chunk ({@link EmbeddedFabric#preferChunkSize}) */
    CoreRig(int size, NicConfig config, int wholeData, int chunkSize) {
        this(size, config, wholeData, chunkSize, 0);
    }

    /** @param rtsPayload every endpoint's preferred bytes with an RTS ({@link EmbeddedFabric#preferRtsPayload}) */
    CoreRig(int size, NicConfig config, int wholeData, int chunkSize, int rtsPayload) {
        network = new EmbeddedNetwork(size);
        rounds = new IntSupplier[size];
        clock.update(1_000_000_000L);
        for (int r = 0; r < size; r++) {
            network.endpoint(r).preferWholeData(wholeData);
            network.endpoint(r).preferChunkSize(chunkSize);
            network.endpoint(r).preferRtsPayload(rtsPayload);
            RecordingDataPath path = new RecordingDataPath(config.over(network.endpoint(r)).chunkSize());
            ProtocolCore<String, String> core = new ProtocolCore<>(network.endpoint(r), path, config,
                    new Meters(registry, "test", r), clock);
            paths.add(path);
            cores.add(core);
            rounds[r] = core::round;
        }
        network.tap(p -> wire.add(p.kind + " " + p.source + ">" + p.target
                + (p.kind == org.jspin.nic.fabric.PacketKind.DATA ? " @" + p.offset + "+" + p.payloadLength : "")
                + (p.kind == org.jspin.nic.fabric.PacketKind.RTS && p.payloadLength > 0 ? " +" + p.payloadLength : "")
                + (p.kind == org.jspin.nic.fabric.PacketKind.CTS && p.offset > 0 ? " from " + p.offset : "")));
    }

    ProtocolCore<String, String> core(int rank) {
        return cores.get(rank);
    }

    RecordingDataPath path(int rank) {
        return paths.get(rank);
    }

    EmbeddedFabric fabric(int rank) {
        return network.endpoint(rank);
    }

    /** Steps every rank until nothing moves. @return steps taken */
    int run() {
        return network.runUntilQuiescent(rounds);
    }

    /** One round of every rank, then the network carries what they sent. */
    int step() {
        return network.step(rounds);
    }

    /** @return the value of meter {@code name} of {@code rank} */
    double meter(String name, int rank) {
        Meter m = registry.get(name).tag("rank", Integer.toString(rank)).meter();
        return m.measure().iterator().next().getValue();
    }

    /** Starts a send of {@code count} elements of {@code type} in {@code buf}. */
    Req send(int from, int to, int tag, MemorySegment buf, long count, Datatype type) {
        Req req = new Req();
        Put put = new Put(to, MatchBits.of(CONTEXT, from, tag), buf, count, type, type.cursor(count, buf), req);
        req.send = core(from).put(put);
        return req;
    }

    /** Starts a send of {@code data} as bytes. */
    Req send(int from, int to, int tag, byte[] data) {
        return send(from, to, tag, MemorySegment.ofArray(data), data.length, Datatype.BYTE);
    }

    /** The match entry of a receive at {@code at} from {@code source} (or ANY_SOURCE) with {@code tag} (or ANY_TAG). */
    static MatchEntry entry(Req req, int source, int tag, MemorySegment buf, long count, Datatype type) {
        return new MatchEntry(source, MatchBits.select(CONTEXT, source, tag), MatchBits.ignore(source, tag), buf, count,
                type, type.cursor(count, buf), req);
    }

    /** Posts a receive of {@code count} elements of {@code type} into {@code buf}. */
    Req recv(int at, int source, int tag, MemorySegment buf, long count, Datatype type) {
        Req req = new Req();
        req.entry = entry(req, source, tag, buf, count, type);
        req.recv = core(at).post(req.entry);
        return req;
    }

    /** Posts a receive of up to {@code buf.length} bytes into {@code buf}. */
    Req recv(int at, int source, int tag, byte[] buf) {
        return recv(at, source, tag, MemorySegment.ofArray(buf), buf.length, Datatype.BYTE);
    }

    /** @return {@code n} bytes of a pattern that differs with {@code seed} */
    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7 + 1);
        }
        return b;
    }

    /** @return {@code n} bytes of {@code value} */
    static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }
}
