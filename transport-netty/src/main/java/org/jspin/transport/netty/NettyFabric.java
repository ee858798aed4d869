package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.SocketChannel;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.events.FrameWriteEvent;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Mailbox;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.settings.Settings;
import org.jspin.transport.netty.join.NettyLaunch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's endpoint on a TCP fabric: the data path. It joins its job when made ({@link FabricJoin}:
 * listen, exchange endpoints through the launch's {@link org.jspin.bootstrap.EndpointExchange},
 * connect, every connection proving itself with the job secret), with every connection's options
 * from {@link SocketOptions}; once each peer's connection is proven, its frames and packets flow
 * here.
 *
 * <p>Threads: none of its own. The engine (one thread at a time) calls {@link #send},
 * {@link #poll}, {@link #release} and {@link #await}, and the rank's {@link DrivenIoEventLoop}
 * runs inside those calls on the same thread: a caller waiting for a message reads it from the
 * socket itself. Decoded arrivals and finished writes go to the endpoint's {@link Mailbox},
 * drained by the same poll; inbound packets come from a pool fed by {@link #release}. A rank with a
 * single peer reads that peer's socket directly in most polls ({@link DirectReads}) rather than
 * asking epoll first.
 *
 * <p>Back-pressure: {@link #send} refuses a packet while the peer's channel is not writable (its
 * outbound bytes are above the high water mark), so the engine keeps it in its backlog and
 * outstanding sends cost bounded memory; and when the engine falls behind, reading from the
 * sockets pauses until it catches up, which TCP turns into back-pressure on the senders.
 */
final class NettyFabric implements Fabric, PeerHandler.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(NettyFabric.class);

    /** Payload limit per packet (the engine's chunk size must not exceed it). */
    static final int MAX_PAYLOAD = 1 << 20;
    private static final int INBOUND_CAPACITY = 1 << 16;

    private final int rank;
    private final int size;
    private final String jobId;
    private final NettyLaunch launch;
    private final PeerLink[] peers;
    private final PeerLinks links;
    private final ReadPacing pacing;
    private final Mailbox mailbox = new Mailbox(INBOUND_CAPACITY, INBOUND_CAPACITY);
    private final OneToOneConcurrentArrayQueue<Packet> spare = new OneToOneConcurrentArrayQueue<>(INBOUND_CAPACITY);
    private final DrivenIoEventLoop loop;
    /** Payloads up to this size are copied behind the header rather than written from their own memory. */
    private final int copyLimit;
    /** Whether payloads the engine has a place for are read from the socket straight into it. */
    private final boolean landing;
    private final int rtsPayload;
    private final int wholeData;
    /** {@link NettySettings#DEFAULT_FLUSH_BYTES}, or the setting. */
    private final long flushBytes;
    /** Whether some peer's link holds packets back ({@link #flush}). */
    private boolean holding;
    /** The congestion control each proven connection gets ({@code -Djspin.netty.congestion}). */
    private final CongestionControl congestion;
    private final FabricJoin join;
    private volatile Runnable wakeup = () -> { };
    /** The engine's handler, from its first poll: asked where DATA payloads land. */
    private PacketHandler handler;
    /** Whether {@link #poll} reads the one peer's socket directly. */
    private final DirectPolling direct;
    private volatile boolean closed;

    /**
     * Joins the fabric: listens, exchanges endpoints, connects, and waits for every peer.
     *
     * @throws MpiException ERR_OTHER naming what failed (bind, exchange, a refused handshake, ranks
     *                      that never connected within the launch's timeout)
     */
    NettyFabric(String jobId, int size, int rank, NettyLaunch launch) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.launch = launch;
        this.peers = new PeerLink[size];
        this.links = new PeerLinks(peers);
        this.pacing = new ReadPacing(links, mailbox);
        NettySettings settings = NettySettings.from(Settings.current()); // fails before anything opens
        SocketOptions options = new SocketOptions(new PeerLiveness(settings.peerTimeoutSeconds()), settings);
        this.congestion = settings.congestionControl();
        this.copyLimit = settings.copyLimit();
        this.landing = settings.landing();
        this.rtsPayload = settings.rtsPayload();
        this.wholeData = settings.wholeData();
        this.flushBytes = settings.flushBytes();
        this.loop = new DrivenIoEventLoop(EventLoops.factory(), () -> wakeup.run());
        loop.adopt(); // the joining thread drives the loop until the engine takes over
        this.join = new FabricJoin(rank, size, jobId, launch, loop, options, this::joined);
        try {
            join.run();
        } catch (RuntimeException e) {
            closeChannels();
            throw e;
        }
        this.direct = new DirectPolling(DirectPolling.choose(links, settings.directReads()));
    }

    /** A proven connection to {@code peer}: the data path goes on it (frames in, packets to the engine). */
    private void joined(ChannelHandlerContext ctx, int peer) {
        congestion.apply((SocketChannel) ctx.channel());
        LandingReads reads = ctx.channel().config().getRecvByteBufAllocator() instanceof LandingReads l ? l : null;
        ctx.pipeline().addLast("frames", new FrameDecoder(MAX_PAYLOAD, this::acquire,
                landing ? header -> landing(peer, header) : null, reads));
        ctx.pipeline().addLast("peer", new PeerHandler(rank, peer, this));
        peers[peer] = new PeerLink(peer, ctx.channel(), mailbox);
    }

    // ---- Fabric -------------------------------------------------------------------------------

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int maxPayload() {
        return MAX_PAYLOAD;
    }

    /** Arrived packets are this rank's, their payloads in its own read buffers (a packet to itself is not held). */
    @Override
    public boolean mayHoldArrivals() {
        return true;
    }

    @Override
    public int preferredRtsPayload() {
        return rtsPayload;
    }

    /**
     * {@value NettySettings#DEFAULT_WHOLE_DATA} bytes by default: both ends then pay one gathering write, one
     * header read and one landing for the message's data rather than one each per chunk; larger
     * messages keep their chunks, which measured faster for them (docs/PERFORMANCE.md).
     */
    @Override
    public int preferredWholeData() {
        return wholeData;
    }

    /**
     * {@value NettySettings#DEFAULT_CHUNK_SIZE} bytes, twice the in-JVM fabric's: each chunk costs a socket write,
     * a frame header and a landing, and on loopback packing does not overlap the sender's write
     * anyway (measured against 256 KiB and 1 MiB: docs/PERFORMANCE.md).
     */
    @Override
    public int preferredChunkSize() {
        return NettySettings.DEFAULT_CHUNK_SIZE;
    }

    /**
     * {@value NettySettings#DEFAULT_EAGER_LIMIT} bytes, Open MPI's {@code btl_tcp_eager_limit}: a 64 KiB message
     * then costs no CTS (measured against 16 KiB: docs/PERFORMANCE.md).
     */
    @Override
    public int preferredEagerLimit() {
        return NettySettings.DEFAULT_EAGER_LIMIT;
    }

    @Override
    public boolean send(Packet p) {
        loop.adopt();
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " has left the fabric");
        }
        int target = p.target;
        if (target < 0 || target >= size) {
            throw new MpiException(ErrorClass.ERR_RANK, "target rank must be in [0, " + size + "), got " + target);
        }
        p.source = rank;
        if (target == rank) {
            return mailbox.arrive(p); // to itself: by reference, as the in-JVM fabric does
        }
        PeerLink peer = peers[target];
        if (peer == null) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " has no connection to rank " + target
                    + ": the endpoint exchange said it is reached another way");
        }
        if (peer.gone) {
            throw new MpiException(ErrorClass.ERR_PROC_FAILED, "rank " + target + " has failed or left the job");
        }
        Channel ch = peer.channel;
        if (!ch.isWritable()) {
            return false;
        }
        ByteBufAllocator alloc = ch.alloc();
        FrameWriteEvent event = new FrameWriteEvent();
        event.begin();
        long clock = event.isEnabled() ? System.nanoTime() : 0;
        PacketKind kind = p.kind; // p may be back in the pool by the time the write returns
        long offset = p.offset;
        int payload = p.payloadLength;
        if (FrameEncoder.copies(p, copyLimit)) {
            ch.writeAndFlush(FrameEncoder.header(alloc, p, copyLimit), ch.voidPromise()); // with whatever was held
            peer.held = 0;
            giveBack(p);
        } else {
            if (!peer.writing.offer(p)) {
                return false;
            }
            ch.write(FrameEncoder.header(alloc, p, copyLimit), ch.voidPromise());
            if (kind == PacketKind.DATA && p.payload != p.staging() && peer.held + payload < flushBytes) {
                ch.write(FrameEncoder.wrapPayload(p)).addListener(peer);
                peer.held += payload;
                holding = true;
            } else {
                ch.writeAndFlush(FrameEncoder.wrapPayload(p)).addListener(peer); // with whatever was held
                peer.held = 0;
            }
        }
        if (payload > 0 && event.shouldCommit()) {
            ChannelOutboundBuffer queued = ch.unsafe().outboundBuffer();
            event.source = rank;
            event.target = target;
            event.kind = kind.name();
            event.offset = offset;
            event.payload = payload;
            event.pending = queued == null ? 0 : queued.totalPendingWriteBytes();
            event.clock = clock;
            event.commit();
        }
        return true;
    }

    /**
     * Writes what {@link #send} held back ({@link NettySettings#DEFAULT_FLUSH_BYTES}); {@link #poll} does too,
     * so a caller that only sends and polls loses nothing.
     */
    @Override
    public void flush() {
        if (!holding) {
            return;
        }
        loop.adopt();
        holding = false;
        links.flushHeld();
    }

    @Override
    public int poll(PacketHandler handler, int limit) {
        loop.adopt();
        this.handler = handler;
        flush(); // before reading: what was held goes out while this poll runs
        if (!direct.read(pacing.paused(), loop)) {
            loop.runNow(); // this thread reads the sockets and finishes pending writes: no hand-off
        }
        int n = mailbox.deliver(handler, limit, gone -> "rank " + gone + ": connection lost");
        pacing.delivered();
        return n;
    }

    /** @return the connection to {@code peer}, once joined (for tests) */
    SocketChannel connectionTo(int peer) {
        return (SocketChannel) peers[peer].channel;
    }

    /** @return polls that read the one peer's socket directly rather than through epoll */
    long directPolls() {
        return direct.directPolls();
    }

    @Override
    public void release(Packet p) {
        if (p.source == rank) {
            giveBack(p); // one of ours, sent to itself
            return;
        }
        FrameDecoder.release(p);
        p.clear();
        spare.offer(p); // dropped when full: the pool only saves allocation
    }

    @Override
    public boolean hasPending() {
        return mailbox.hasPending();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        this.wakeup = wakeup;
    }

    @Override
    public boolean pollDriven() {
        return true;
    }

    @Override
    public void await(long nanos) {
        loop.adopt();
        loop.run(nanos);
    }

    @Override
    public void wakeup() {
        loop.wakeup();
    }

    // ---- from the event loop ------------------------------------------------------------------

    /**
     * Where a payload from {@code peer} lands, as the engine says; only for a header that claims the
     * right ranks, and for an RTS or an eager message only when every packet that arrived before
     * it has been delivered (the engine may match it now, see {@link PacketHandler#landing}).
     */
    private MemorySegment landing(int peer, Packet header) {
        PacketHandler h = handler;
        if (h == null || closed || header.source != peer || header.target != rank) {
            return null; // PeerHandler closes a connection whose packets claim other ranks
        }
        if ((header.kind == PacketKind.RTS || header.kind == PacketKind.EAGER) && mailbox.arrivals() > 0) {
            return null; // an earlier arrival might match the same receive: the engine matches in order
        }
        return h.landing(header);
    }

    private Packet acquire() {
        Packet p = spare.poll();
        if (p == null) {
            p = new Packet();
            p.clear();
        }
        return p;
    }

    @Override
    public void arrived(Packet p) {
        while (!mailbox.arrive(p)) {
            Thread.onSpinWait(); // only once reading failed to pause in time; the engine is draining
        }
        pacing.arrived();
        // no wake-up: Netty calls this on the engine's driving thread, whose poll takes it next
    }

    @Override
    public void lost(int peer, String reason) {
        PeerLink p = peers[peer];
        if (p == null || !p.lose()) {
            return;
        }
        if (!closed) {
            LOG.debug("rank {}: connection to rank {} ended: {}", rank, peer, reason);
            mailbox.depart(peer);
        }
    }

    @Override
    public void writabilityChanged() {
        // the driving thread retries its backlog in the same round; nobody else to tell
    }

    /** A sent packet is free again; called on the driving thread (a send's copy, a finished write). */
    private void giveBack(Packet p) {
        PeerLink.giveBack(mailbox, p);
    }

    // ---- leaving ------------------------------------------------------------------------------

    /** Leaves: what was written is flushed to each peer before its connection closes. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        links.stopLanding(); // the engine stopped
        closeChannels();
        launch.exchange().close();
        Packet p;
        while ((p = mailbox.takeArrival()) != null) {
            FrameDecoder.release(p); // arrivals nobody will take: free their buffers
        }
    }

    private void closeChannels() {
        links.close(join, loop);
        loop.shutdownGracefully();
        loop.runNow(); // closes the epoll descriptor
    }
}
