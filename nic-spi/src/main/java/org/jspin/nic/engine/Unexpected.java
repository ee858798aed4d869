package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.MatchedMessage;
import org.jspin.nic.fabric.PacketKind;

/**
 * A message that arrived before a receive for it: the envelope of an RTS, or an eager message
 * with its payload copied out of the packet (so the packet goes back to its sender at once).
 */
final class Unexpected implements MatchedMessage {
    final PacketKind kind;
    final int source;
    final long bits;
    final long length;
    final long sendId;
    final long signatureHash;
    final long signatureElements;
    /** The eager payload (null for an RTS). */
    final MemorySegment data;

    Unexpected(PacketKind kind, int source, long bits, long length, long sendId, long signatureHash,
               long signatureElements, MemorySegment data) {
        this.kind = kind;
        this.source = source;
        this.bits = bits;
        this.length = length;
        this.sendId = sendId;
        this.signatureHash = signatureHash;
        this.signatureElements = signatureElements;
        this.data = data;
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
