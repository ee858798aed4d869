package org.jspin.transport.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketChannelConfig;

/**
 * Every socket option of the fabric's connections, in one place, for the connecting and the
 * accepting side alike.
 */
final class SocketOptions {
    /** Writes stop being accepted above 4 MiB queued for a peer, and resume below 1 MiB. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 4 << 20);
    /**
     * Reads grow up to 1 MiB (Netty's default stops at 64 KiB): a chunk that arrives within one read
     * buffer is sliced out of it rather than copied into a buffer of its own.
     */
    private static final AdaptiveRecvByteBufAllocator READS = new AdaptiveRecvByteBufAllocator(4096, 65536,
            NettyFabric.MAX_PAYLOAD);
    private final PeerLiveness liveness;
    /**
     * Socket buffer sizes (0 leaves the kernel's autotuning). Netty caps one gathering write at
     * twice the send buffer, which with the kernel's initial 16 KiB would split a 256 KiB chunk into
     * eight system calls.
     */
    private final int sendBuffer;
    private final int receiveBuffer;

    /**
     * @param liveness how a dead peer's host is found
     * @param settings the fabric's settings (socket buffer sizes)
     */
    SocketOptions(PeerLiveness liveness, NettySettings settings) {
        this.liveness = liveness;
        this.sendBuffer = settings.sendBuffer();
        this.receiveBuffer = settings.receiveBuffer();
    }

    /**
     * Sets a peer connection's options; called before its first read (so that its read buffers are
     * {@link LandingReads}) and, on the connecting side, before it connects.
     */
    void peer(SocketChannel ch) {
        SocketChannelConfig c = ch.config();
        c.setTcpNoDelay(true);
        liveness.apply(ch);
        c.setWriteBufferWaterMark(WATER_MARK);
        c.setAllocator(PooledByteBufAllocator.DEFAULT);
        c.setRecvByteBufAllocator(new LandingReads(READS));
        if (sendBuffer > 0) {
            c.setSendBufferSize(sendBuffer);
        }
        if (receiveBuffer > 0) {
            c.setReceiveBufferSize(receiveBuffer);
        }
    }

    /** Sets the listener's options: an accepted socket's window scale is agreed before {@link #peer} runs. */
    void listener(ServerBootstrap sb) {
        if (receiveBuffer > 0) {
            sb.option(ChannelOption.SO_RCVBUF, receiveBuffer);
        }
    }
}
