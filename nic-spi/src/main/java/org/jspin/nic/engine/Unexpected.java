package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.fabric.Packet;

import org.jspin.nic.MatchedMessage;
import org.jspin.nic.fabric.PacketKind;

/**
 * A message that arrived before a receive for it: an eager message with its payload, or the
 * envelope of an RTS with the first bytes it carried (if any). The payload is either copied out
 * of the packet (so the packet goes back to its sender at once) or, on a fabric whose arrived
 * packets are the receiver's own, left in the packet, which is held until the message is taken
 * ({@link org.jspin.nic.fabric.Fabric#mayHoldArrivals}). An RTS's bytes in its sender's own packet
 * are held until the engine's next round, then dropped ({@link #dropData}).
 */
final class Unexpected implements MatchedMessage {
    final PacketKind kind;
    final int source;
    final long bits;
    final long length;
    final long sendId;
    final long signatureHash;
    final long signatureElements;
    /** The payload (null if none: an empty eager message, a bare RTS, an RTS's bytes dropped), from {@link #dataOffset}. */
    MemorySegment data;
    long dataOffset;
    /** Bytes of {@link #data}: the whole message if eager, the message's start if an RTS. */
    long dataBytes;
    /** The arrived packet holding {@link #data}, released when the message is taken; null if it was copied. */
    Packet held;

    Unexpected(PacketKind kind, int source, long bits, long length, long sendId, long signatureHash,
               long signatureElements, MemorySegment data, long dataOffset, long dataBytes, Packet held) {
        this.kind = kind;
        this.source = source;
        this.bits = bits;
        this.length = length;
        this.sendId = sendId;
        this.signatureHash = signatureHash;
        this.signatureElements = signatureElements;
        this.data = data;
        this.dataOffset = dataOffset;
        this.dataBytes = dataBytes;
        this.held = held;
    }

    /** Forgets the payload (an RTS's bytes, which its sender will send again when asked). */
    void dropData() {
        data = null;
        dataOffset = 0;
        dataBytes = 0;
    }

    @Override
    public long matchBits() {
        return bits;
    }

    @Override
    public long messageBytes() {
        return length;
    }
}
