package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Mailbox;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/** What a rank does to all its links at once, on {@link EmbeddedChannel}s. */
class PeerLinksTest {
    private final Mailbox mailbox = new Mailbox(16, 16);
    private final PeerLink[] array = new PeerLink[4];
    private final PeerLinks links = new PeerLinks(array);

    private PeerLink join(int rank, EmbeddedChannel ch) {
        array[rank] = new PeerLink(rank, ch, mailbox);
        return array[rank];
    }

    @Test
    void theOnlyLinkIsThereWhenThereIsExactlyOne() {
        assertNull(links.only(), "no peers yet");
        PeerLink one = join(2, new EmbeddedChannel());
        assertSame(one, links.only());
        join(3, new EmbeddedChannel());
        assertNull(links.only(), "two peers");
    }

    @Test
    void readingTurnsOffAndOnForEveryLink() {
        EmbeddedChannel a = new EmbeddedChannel();
        EmbeddedChannel b = new EmbeddedChannel();
        join(0, a);
        join(3, b);
        links.autoRead(false);
        assertFalse(a.config().isAutoRead());
        assertFalse(b.config().isAutoRead());
        links.autoRead(true);
        assertTrue(a.config().isAutoRead() && b.config().isAutoRead());
    }

    @Test
    void heldBytesAreFlushedOnlyWhereALinkHeldSome() {
        EmbeddedChannel holding = new EmbeddedChannel();
        EmbeddedChannel idle = new EmbeddedChannel();
        join(1, holding).held = 100;
        join(2, idle);
        holding.write(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        idle.write(Unpooled.wrappedBuffer(new byte[] {4}));
        links.flushHeld();
        ByteBuf out = holding.readOutbound();
        assertEquals(3, out.readableBytes());
        out.release();
        assertEquals(0, array[1].held);
        assertNull(idle.readOutbound(), "a link that held nothing is not flushed");
        idle.finishAndReleaseAll();
    }

    @Test
    void itKnowsItsChannels() {
        EmbeddedChannel mine = new EmbeddedChannel();
        join(1, mine);
        assertTrue(links.holds(mine));
        assertFalse(links.holds(new EmbeddedChannel()));
    }

    @Test
    void afterLandingStopsFramesAreDropped() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(NettyFabric.MAX_PAYLOAD));
        join(1, ch);
        join(2, new EmbeddedChannel()); // no decoder: nothing to stop
        links.stopLanding();
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.CTS;
        p.source = 1;
        p.target = 0;
        ch.writeInbound(FrameEncoder.header(ch.alloc(), p, 0));
        assertNull(ch.readInbound(), "a decoder that stopped landing drops what arrives");
    }
}
