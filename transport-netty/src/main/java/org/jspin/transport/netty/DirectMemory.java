package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBuf;

/**
 * Views of Netty's direct buffers as memory segments without allocating per packet: one segment
 * spanning the whole address space, and a buffer's bytes as an offset into it. Falls back to a
 * segment per buffer when restricted methods are denied ({@code --illegal-native-access=deny}
 * without {@code --enable-native-access}).
 */
final class DirectMemory {
    /** Every address, or null when that view is not allowed in this JVM. */
    static final MemorySegment ALL = everything();

    private DirectMemory() {
    }

    private static MemorySegment everything() {
        try {
            return MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
        } catch (IllegalCallerException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Points {@code segment}/{@code offset} of the caller at {@code length} readable bytes of {@code buf} from {@code at}. */
    static MemorySegment segment(ByteBuf buf, int at, int length) {
        if (ALL != null && buf.hasMemoryAddress()) {
            return ALL;
        }
        return MemorySegment.ofBuffer(buf.nioBuffer(at, length));
    }

    /** @return the offset into {@link #segment}'s result where byte {@code at} of {@code buf} lives */
    static long offset(MemorySegment segment, ByteBuf buf, int at) {
        return segment == ALL ? buf.memoryAddress() + at : 0;
    }
}
