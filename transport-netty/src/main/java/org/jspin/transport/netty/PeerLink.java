package org.jspin.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jspin.nic.fabric.Mailbox;
import org.jspin.nic.fabric.Packet;

/**
 * One connected peer: its channel, and the packets written to it whose writes have not finished,
 * which go back to the engine through the {@link Mailbox} as each write finishes.
 */
final class PeerLink implements ChannelFutureListener {
    private static final int IN_FLIGHT_CAPACITY = 1 << 14;

    final int rank;
    final Channel channel;
    /** Packets whose payloads are being written from their own memory, in the order they were written. */
    final OneToOneConcurrentArrayQueue<Packet> writing = new OneToOneConcurrentArrayQueue<>(IN_FLIGHT_CAPACITY);
    private final Mailbox mailbox;
    volatile boolean gone;
    /** Payload bytes of DATA packets written to the channel, held back from the socket ({@link NettyFabric#flush}). */
    long held;

    PeerLink(int rank, Channel channel, Mailbox mailbox) {
        this.rank = rank;
        this.channel = channel;
        this.mailbox = mailbox;
    }

    /** A wrapped payload's write finished (writes to one channel finish in order). */
    @Override
    public void operationComplete(ChannelFuture f) {
        Packet p = writing.poll();
        if (p != null) {
            giveBack(mailbox, p);
        }
    }

    /**
     * The connection ended: packets whose writes had not finished will not be written any more,
     * and are free again.
     *
     * @return whether the link was live until now (false: it was lost already)
     */
    boolean lose() {
        if (gone) {
            return false;
        }
        gone = true;
        Packet w;
        while ((w = writing.poll()) != null) {
            giveBack(mailbox, w);
        }
        return true;
    }

    /** A sent packet is free again; called on the driving thread (a send's copy, a finished write). */
    static void giveBack(Mailbox mailbox, Packet p) {
        while (!mailbox.release(p)) {
            Thread.onSpinWait(); // bounded by the engine's pool, far below the capacity
        }
    }
}
