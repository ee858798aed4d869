package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Mailbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a poll must go through epoll rather than read the one peer's socket: no such peer, reading
 * paused, a task queued, the peer gone, the channel closed. (Reading an epoll socket directly is
 * NettyFabricTest's.)
 */
class DirectPollingTest {
    private final Mailbox mailbox = new Mailbox(16, 16);
    private final DrivenIoEventLoop loop = new DrivenIoEventLoop(EventLoops.factory(), () -> { });

    @AfterEach
    void closeLoop() {
        loop.adopt();
        loop.shutdownGracefully();
        loop.runNow();
    }

    @Test
    void onlyAnEpollChannelOfTheOnlyPeerIsReadDirectly() {
        PeerLink[] one = {null, new PeerLink(1, new EmbeddedChannel(), mailbox)};
        assertNull(DirectPolling.choose(new PeerLinks(one), true), "an embedded channel is no epoll socket");
        assertNull(DirectPolling.choose(new PeerLinks(new PeerLink[2]), true), "no peer");
        assertNull(DirectPolling.choose(new PeerLinks(one), false), "switched off");
    }

    @Test
    void withoutAPeerEveryPollGoesThroughEpoll() {
        DirectPolling none = new DirectPolling(null);
        for (int i = 0; i < 3 * DirectPolling.EPOLL_EVERY; i++) {
            assertFalse(none.read(false, loop));
        }
        assertEquals(0, none.directPolls());
    }

    @Test
    void aPausedGoneBusyOrClosedPeerIsNotReadDirectly() {
        EmbeddedChannel ch = new EmbeddedChannel(); // reading it directly would throw: it is no epoll socket
        PeerLink link = new PeerLink(1, ch, mailbox);
        DirectPolling polling = new DirectPolling(link);
        assertFalse(polling.read(true, loop), "reading paused");
        loop.execute(() -> { });
        assertFalse(polling.read(false, loop), "another thread queued a task");
        loop.adopt();
        loop.runNow();
        link.gone = true;
        assertFalse(polling.read(false, loop), "the peer is gone");
        link.gone = false;
        ch.close();
        assertFalse(polling.read(false, loop), "the channel closed");
        assertEquals(0, polling.directPolls());
    }
}
