package org.jspin.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * For a rank with a single peer: decides poll by poll whether to read that peer's socket directly
 * ({@link DirectReads}) rather than ask epoll first, and reads it.
 */
final class DirectPolling {
    /**
     * A rank that reads directly still polls through epoll every this many polls, for what only
     * epoll reports: the listening socket, a peer's connection closing while no read is made.
     */
    static final int EPOLL_EVERY = 16;

    /** The one peer whose socket polls read directly, or null (more peers, or not epoll). */
    private final PeerLink only;
    private int polls;
    /** Polls that read the one peer's socket directly (for tests). */
    private long directPolls;

    /** @param only the link to read directly, or null: every poll goes through epoll */
    DirectPolling(PeerLink only) {
        this.only = only;
    }

    /** @return the link polls may read directly: the only one, where there is one and it can, and {@code enabled} */
    static PeerLink choose(PeerLinks links, boolean enabled) {
        PeerLink only = links.only();
        return only != null && enabled && DirectReads.supports(only.channel) ? only : null;
    }

    /**
     * Reads the one peer's socket straight away, unless this poll must go through epoll: every
     * {@value #EPOLL_EVERY}th poll, when another thread queued a task, while reading is paused (it
     * must stay paused), and while a write waits for room in the socket (epoll says when).
     *
     * @return whether it read (else the caller polls through epoll)
     */
    boolean read(boolean readingPaused, DrivenIoEventLoop loop) {
        PeerLink p = only;
        if (p == null || ++polls % EPOLL_EVERY == 0 || readingPaused || p.gone || loop.hasTasks()) {
            return false;
        }
        Channel ch = p.channel;
        ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
        if (out == null || !out.isEmpty() || !ch.isActive()) {
            return false;
        }
        DirectReads.read(ch);
        directPolls++;
        return true;
    }

    /** @return polls that read the one peer's socket directly rather than through epoll */
    long directPolls() {
        return directPolls;
    }
}
