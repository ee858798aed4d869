package org.jspin.transport.netty;

import java.lang.foreign.MemorySegment;

import io.netty.buffer.ByteBuf;

import org.jspin.nic.fabric.Packet;

/**
 * A decoded packet and the buffer its payload lives in; the buffer is released when the engine
 * releases the packet.
 */
final class InboundFrame {
    final Packet packet;
    final ByteBuf payload;

    /** @param packet the decoded header; its payload window is set to {@code payload} */
    InboundFrame(Packet packet, ByteBuf payload) {
        this.packet = packet;
        this.payload = payload;
        if (payload != null && payload.isReadable()) {
            packet.payload = MemorySegment.ofBuffer(payload.nioBuffer());
            packet.payloadOffset = 0;
            packet.payloadLength = payload.readableBytes();
        }
    }

    /** The engine is done with the payload. */
    void release() {
        if (payload != null) {
            payload.release();
        }
    }
}
