package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.datatype.Datatype;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.NicConfig;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.fabric.embedded.EmbeddedFabric;
import org.jspin.nic.fabric.embedded.EmbeddedNetwork;
import org.jspin.nic.match.MatchBits;
import org.jspin.nic.match.Matcher;

/**
 * The protocol core's parts, wired as {@link ProtocolCore} wires them, around rank 0 of an embedded
 * network whose other ranks nobody runs: a test drives one part by hand, reads what rank 0 sent
 * ({@link #sent}) and makes the packets its peers would send ({@link #from}), with no second core.
 */
final class Parts {
    final EmbeddedNetwork network;
    final EmbeddedFabric fabric;
    final RecordingDataPath path;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Meters meters;
    final PacketPool pool;
    final EagerCredit credit;
    final Outbox<String> outbox;
    final Sender<String> sender;
    final Matcher<RecvOp<String>, Unexpected> matcher = new Matcher<>();
    final WaitingProbes probes = new WaitingProbes();
    final UnexpectedMessages unexpected;
    final Receiver<String> receiver;
    final EarlyMatch<String> early;
    final BitSet failedRanks = new BitSet();
    final PeerFailure peers;
    private long nextId = 1;

    /** Rank 0 of {@code size} ranks, with {@link CoreRig#SMALL}'s limits (eager 64, chunk 256, 16 packets). */
    Parts(int size) {
        this(size, CoreRig.SMALL);
    }

    Parts(int size, NicConfig settings) {
        network = new EmbeddedNetwork(size);
        fabric = network.endpoint(0);
        NicConfig config = settings.over(fabric);
        path = new RecordingDataPath(config.chunkSize());
        meters = new Meters(registry, "test", 0);
        pool = new PacketPool(config.packets(), meters.gauge("jspin.packets.in.flight"));
        credit = new EagerCredit(size, config.eagerCredit());
        outbox = new Outbox<>(fabric, pool, path);
        sender = new Sender<>(fabric, path, pool, outbox, credit, SendLimits.of(config, fabric), meters);
        outbox.lossesTo(sender);
        unexpected = new UnexpectedMessages(fabric, matcher, probes, credit, meters);
        receiver = new Receiver<>(fabric, path, pool, outbox, matcher, unexpected, credit, failedRanks, meters);
        early = new EarlyMatch<>(path, matcher, receiver, credit, failedRanks, size);
        peers = new PeerFailure(failedRanks, 0, size, sender, outbox, receiver, early, probes);
    }

    /** @return a send of {@code data} to {@code to} with {@code tag}, its id set, not yet started */
    Req op(int to, int tag, byte[] data) {
        Req req = new Req();
        MemorySegment buf = MemorySegment.ofArray(data);
        req.send = new SendOp<>(new Put(to, MatchBits.of(CoreRig.CONTEXT, 0, tag), buf, data.length, Datatype.BYTE,
                Datatype.BYTE.cursor(data.length, buf), req));
        req.send.id = nextId++;
        return req;
    }

    /** @return a send of {@code data} to {@code to} with {@code tag}, started ({@link Sender#start}) */
    Req send(int to, int tag, byte[] data) {
        Req req = op(to, tag, data);
        sender.start(req.send);
        return req;
    }

    /** @return a receive into {@code buf} from {@code source} (-1: any) with {@code tag} (-1: any), its id set, not posted */
    Req receive(int source, int tag, byte[] buf) {
        Req req = new Req();
        MemorySegment seg = MemorySegment.ofArray(buf);
        req.entry = new MatchEntry(source, MatchBits.select(CoreRig.CONTEXT, source, tag), MatchBits.ignore(source, tag),
                seg, buf.length, Datatype.BYTE, Datatype.BYTE.cursor(buf.length, seg), req);
        req.recv = new RecvOp<>(req.entry);
        req.recv.id = nextId++;
        return req;
    }

    /** @return a receive into {@code buf} from {@code source} (-1: any) with {@code tag} (-1: any), posted on the matcher */
    Req recv(int source, int tag, byte[] buf) {
        Req req = receive(source, tag, buf);
        matcher.post(req.entry.matchBits(), req.entry.ignoreBits(), req.recv);
        return req;
    }

    /** @return the next packet rank 0 handed its fabric, or null */
    Packet sent() {
        return fabric.readOutbound();
    }

    /**
     * @return a packet of {@code kind} from {@code source} to rank 0 with {@code tag}, for a message
     *         of {@code length} bytes whose send is {@code sendId}, carrying {@code payload} (may be empty)
     */
    static Packet from(PacketKind kind, int source, int tag, long sendId, long length, byte[] payload) {
        Packet p = new Packet();
        p.clear();
        p.kind = kind;
        p.source = source;
        p.target = 0;
        p.matchBits = MatchBits.of(CoreRig.CONTEXT, source, tag);
        p.sendId = sendId;
        p.messageLength = length;
        p.payload = MemorySegment.ofArray(payload);
        p.payloadLength = payload.length;
        return p;
    }

    /** @return a CTS from {@code source} for send {@code sendId}: receive {@code recvId} accepts {@code accepted} bytes from {@code offset} */
    static Packet cts(int source, long sendId, long recvId, long accepted, long offset) {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.CTS;
        p.source = source;
        p.target = 0;
        p.sendId = sendId;
        p.recvId = recvId;
        p.messageLength = accepted;
        p.offset = offset;
        return p;
    }

    /** @return a DATA chunk from {@code source} for receive {@code recvId} of send {@code sendId}: {@code payload} at {@code offset} */
    static Packet data(int source, long sendId, long recvId, long offset, byte[] payload) {
        Packet p = from(PacketKind.DATA, source, 0, sendId, 0, payload);
        p.matchBits = 0;
        p.recvId = recvId;
        p.offset = offset;
        return p;
    }

    /** @return the value of rank 0's meter {@code name} */
    double meter(String name) {
        return registry.get(name).meter().measure().iterator().next().getValue();
    }
}
