package org.jspin.transport.netty;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

/**
 * What a rank does to all its peer links at once: pause or resume reading, flush what was held
 * back, stop landing, close. Not on the per-packet path, which indexes the array itself.
 */
final class PeerLinks {
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    /** Indexed by rank; null for this rank and for ranks reached another way. */
    private final PeerLink[] links;

    /** @param links the array the fabric fills as peers join, shared (not copied) */
    PeerLinks(PeerLink[] links) {
        this.links = links;
    }

    /** @return the one link, where there is exactly one, else null */
    PeerLink only() {
        PeerLink only = null;
        for (PeerLink p : links) {
            if (p != null) {
                if (only != null) {
                    return null;
                }
                only = p;
            }
        }
        return only;
    }

    /** Turns reading from every peer's socket on or off. */
    void autoRead(boolean on) {
        for (PeerLink p : links) {
            if (p != null) {
                p.channel.config().setAutoRead(on);
            }
        }
    }

    /** Writes to the sockets what each link held back. */
    void flushHeld() {
        for (PeerLink p : links) {
            if (p != null && p.held > 0) {
                p.held = 0;
                p.channel.flush();
            }
        }
    }

    /** Lands no more payloads in the engine's memory: the receives it belongs to have ended. */
    void stopLanding() {
        for (PeerLink p : links) {
            FrameDecoder d = p == null ? null : p.channel.pipeline().get(FrameDecoder.class);
            if (d != null) {
                d.stopLanding();
            }
        }
    }

    /** @return whether {@code ch} is one of the links' channels */
    boolean holds(Channel ch) {
        for (PeerLink p : links) {
            if (p != null && p.channel == ch) {
                return true;
            }
        }
        return false;
    }

    /**
     * Closes every link once what was written to it is flushed, and the channels the join still
     * holds, driving {@code loop} until they closed or {@value #CLOSE_WAIT_MILLIS} ms passed; a
     * channel still open then is closed forcibly.
     */
    void close(FabricJoin join, DrivenIoEventLoop loop) {
        List<ChannelFuture> closing = new ArrayList<>();
        for (PeerLink p : links) {
            if (p != null) {
                // writes finish in order: closing after an empty write keeps everything queued before it
                p.channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                closing.add(p.channel.closeFuture());
            }
        }
        closing.addAll(join.close(this::holds));
        loop.adopt();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        FabricJoin.driveUntil(loop, () -> closing.stream().allMatch(ChannelFuture::isDone), deadline);
        for (ChannelFuture f : closing) {
            if (!f.isDone()) {
                f.channel().unsafe().closeForcibly(); // the peer stopped reading: give up on the rest
            }
        }
    }
}
