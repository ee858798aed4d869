package org.jspin.transport.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import org.jspin.nic.fabric.Packet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a connection to one peer, after the handshake: hands decoded packets to the
 * fabric, checks that they claim the ranks this connection was proven to join (a peer cannot pose
 * as another), and reports the connection's end and its writability changes.
 */
final class PeerHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PeerHandler.class);

    /** What the handler reports to. */
    interface Sink {
        /** A packet from the peer (the sink now owns it and its payload buffer). */
        void arrived(Packet p);

        /** The connection to {@code peer} ended. */
        void lost(int peer, String reason);

        /** The connection's writability changed. */
        void writabilityChanged();
    }

    private final int rank;
    private final int peer;
    private final Sink sink;
    private String reason;

    PeerHandler(int rank, int peer, Sink sink) {
        this.rank = rank;
        this.peer = peer;
        this.sink = sink;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Packet p)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (p.source != peer || p.target != rank) {
            FrameDecoder.release(p);
            close(ctx, "packet " + p.source + "->" + p.target + " on the connection between ranks " + peer + " and "
                    + rank);
            return;
        }
        sink.arrived(p);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        sink.writabilityChanged();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        close(ctx, String.valueOf(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        FrameDecoder decoder = ctx.pipeline().get(FrameDecoder.class);
        String why = reason != null ? reason
                : decoder != null && decoder.failure() != null ? "malformed frame: " + decoder.failure()
                : "connection closed";
        sink.lost(peer, why);
        super.channelInactive(ctx);
    }

    private void close(ChannelHandlerContext ctx, String why) {
        if (reason == null) {
            reason = why;
            LOG.warn("rank {}: closing connection to rank {}: {}", rank, peer, why);
        }
        ctx.close();
    }
}
