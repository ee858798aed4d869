package org.jspin.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * The read buffers of one connection: Netty's adaptive ones, except while a payload is landing.
 * Then the socket is read straight into the memory the payload belongs in (a contiguous receive's
 * buffer), so those bytes are copied once, by the kernel, as a raw TCP receive copies them, rather
 * than into a read buffer and again out of it.
 *
 * <p>{@link FrameDecoder} drives it: {@link #land} when a header names a payload that has a
 * landing place and again, behind them, as bytes arrive there; {@link #stop} when it is whole.
 * Right after a landed payload one header's worth is read alone, so that the next payload of a
 * stream of chunks lands too rather than arriving in the same read as the header before it.
 *
 * <p>One instance per channel (the handle keeps no state of its own), set in the channel's
 * initializer before its first read; used on the channel's event loop only.
 */
final class LandingReads implements RecvByteBufAllocator {
    private final AdaptiveRecvByteBufAllocator adaptive;
    /** The buffer over the landing payload that reads go into (the decoder's), or null. */
    private ByteBuf window;
    /** Where in {@link #window} the next read goes: behind the bytes already there. */
    private int at;
    /** Read just a header next: a landed payload has just ended. */
    private boolean headerNext;

    /** @param adaptive the buffers for everything that does not land */
    LandingReads(AdaptiveRecvByteBufAllocator adaptive) {
        this.adaptive = adaptive;
    }

    /**
     * The next reads go into {@code payload} (a buffer of exactly the payload's size, over native
     * memory) from byte {@code landed} on, until {@link #stop}. The same buffer is handed out for
     * every read of the payload, each time retained for the read (the decoder releases what it is
     * fired), so a read allocates nothing.
     */
    void land(ByteBuf payload, long landed) {
        window = payload;
        at = (int) landed;
    }

    /** The landing payload is whole (or abandoned): back to read buffers, a header first. */
    void stop() {
        window = null;
        headerNext = true;
    }

    /** @return whether {@code buf} is the buffer over the landing payload (bytes read into it are in place already) */
    boolean isWindow(ByteBuf buf) {
        return buf != null && buf == window;
    }

    @Override
    public Handle newHandle() {
        return new LandingHandle((ExtendedHandle) adaptive.newHandle());
    }

    private final class LandingHandle implements ExtendedHandle {
        private final ExtendedHandle delegate;

        LandingHandle(ExtendedHandle delegate) {
            this.delegate = delegate;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            if (window != null) {
                // empty, with room for the rest: what a read adds is what the decoder finds readable
                window.setIndex(at, at);
                return window.retain();
            }
            if (headerNext) {
                headerNext = false;
                return alloc.ioBuffer(FrameFormat.HEADER_BYTES, FrameFormat.HEADER_BYTES);
            }
            return delegate.allocate(alloc);
        }

        @Override
        public int guess() {
            return window != null ? window.capacity() - at : delegate.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            delegate.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            delegate.incMessagesRead(numMessages);
        }

        @Override
        public void lastBytesRead(int bytes) {
            delegate.lastBytesRead(bytes);
        }

        @Override
        public int lastBytesRead() {
            return delegate.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            delegate.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return delegate.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return delegate.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return delegate.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            delegate.readComplete();
        }
    }
}
