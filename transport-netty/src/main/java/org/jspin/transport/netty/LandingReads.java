package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
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
    /** Where the rest of the landing payload goes, or null. */
    private MemorySegment window;
    /** The buffer last handed out over {@link #window}, so the decoder knows bytes in it are in place. */
    private ByteBuf windowBuffer;
    /** Read just a header next: a landed payload has just ended. */
    private boolean headerNext;

    /** @param adaptive the buffers for everything that does not land */
    LandingReads(AdaptiveRecvByteBufAllocator adaptive) {
        this.adaptive = adaptive;
    }

    /** The next reads go into {@code rest} (native memory) until {@link #stop}. */
    void land(MemorySegment rest) {
        window = rest;
        windowBuffer = null;
    }

    /** The landing payload is whole (or abandoned): back to read buffers, a header first. */
    void stop() {
        window = null;
        windowBuffer = null;
        headerNext = true;
    }

    /** @return whether {@code buf} is the buffer over the landing window (its bytes are in place already) */
    boolean isWindow(ByteBuf buf) {
        return buf != null && buf == windowBuffer;
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
                // wraps without owning: releasing it frees nothing of the user's
                windowBuffer = Unpooled.wrappedBuffer(window.asByteBuffer()).clear();
                return windowBuffer;
            }
            if (headerNext) {
                headerNext = false;
                return alloc.ioBuffer(FrameFormat.HEADER_BYTES, FrameFormat.HEADER_BYTES);
            }
            return delegate.allocate(alloc);
        }

        @Override
        public int guess() {
            return window != null ? (int) Math.min(Integer.MAX_VALUE, window.byteSize()) : delegate.guess();
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
