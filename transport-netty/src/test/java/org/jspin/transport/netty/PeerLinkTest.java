package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Mailbox;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.junit.jupiter.api.Test;

/** A peer link gives written packets back in order as their writes finish, and all of them when lost. */
class PeerLinkTest {
    private final Mailbox mailbox = new Mailbox(16, 16);
    private final PeerLink link = new PeerLink(2, new EmbeddedChannel(), mailbox);

    /** @return the packets the mailbox gives back to the engine, in order */
    private List<Packet> released() {
        List<Packet> out = new ArrayList<>();
        mailbox.deliver(new PacketHandler() {
            @Override
            public void onPacket(Packet p) {
                throw new AssertionError("no arrivals here");
            }

            @Override
            public void onReleased(Packet p) {
                out.add(p);
            }

            @Override
            public void onPeerFailed(int rank, String reason) {
                throw new AssertionError("no departures here");
            }
        }, 100, r -> "gone");
        return out;
    }

    @Test
    void aFinishedWriteGivesBackTheOldestPacket() {
        Packet first = new Packet();
        Packet second = new Packet();
        link.writing.offer(first);
        link.writing.offer(second);
        link.operationComplete(null);
        assertEquals(List.of(first), released());
        link.operationComplete(null);
        link.operationComplete(null); // nothing left: nothing to give back
        assertEquals(List.of(second), released());
    }

    @Test
    void losingTheLinkGivesBackEveryUnfinishedWriteOnce() {
        Packet a = new Packet();
        Packet b = new Packet();
        link.writing.offer(a);
        link.writing.offer(b);
        assertTrue(link.lose());
        assertTrue(link.gone);
        List<Packet> back = released();
        assertEquals(2, back.size());
        assertSame(a, back.get(0));
        assertSame(b, back.get(1));
        assertFalse(link.lose(), "lost once only");
        assertEquals(2, link.rank);
    }
}
