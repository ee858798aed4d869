package org.jspin.nic.fabric;

import java.lang.foreign.MemorySegment;

/**
 * One packet: a protocol header and a payload window. Packets are pooled and reused (the per-packet
 * path allocates nothing), so a packet is plain mutable data, written by the sending engine and read
 * by the receiving one, like a wire header; its fields are public for that reason.
 *
 * <p>The payload is a window {@code [payloadOffset, payloadOffset + payloadLength)} of
 * {@link #payload}: either the packet's own staging buffer or, for a contiguous send, the user's
 * buffer itself (zero-copy). A packet belongs to its sender until the fabric hands it back through
 * {@link PacketHandler#onReleased}.
 */
public final class Packet {
    /** Protocol role. */
    public PacketKind kind;
    /** World rank of the sender. */
    public int source;
    /** World rank of the receiver. */
    public int target;
    /** The MPI envelope as match bits (EAGER, RTS). */
    public long matchBits;
    /** The sender's operation id (RTS, CTS, DATA). */
    public long sendId;
    /** The receiver's operation id (CTS, DATA). */
    public long recvId;
    /** Byte offset of the payload in the message (DATA). */
    public long offset;
    /** Message length in bytes (EAGER, RTS); for a CTS, the bytes the receiver accepts. */
    public long messageLength;
    /** Hash of the message's type signature ({@code SignatureHash}). */
    public long signatureHash;
    /** Basic elements in the message, or -1 when it is untyped (bytes) and matches any receive. */
    public long signatureElements;
    /** Where the payload lives (null when the packet has none). */
    public MemorySegment payload;
    /** First payload byte in {@link #payload}. */
    public long payloadOffset;
    /** Payload bytes. */
    public int payloadLength;
    /**
     * Receiver-local: the payload was written where the receive wanted it while it arrived
     * ({@link PacketHandler#landing}); {@link #payload} shows it there, and nobody copies it again.
     */
    public boolean placed;
    /** Sender-local: the operation told when this packet is released; never on the wire. */
    public Object owner;

    private MemorySegment staging;

    /** @return this packet's own staging buffer, or null until {@link #staging(MemorySegment)} gives it one */
    public MemorySegment staging() {
        return staging;
    }

    /** Gives the packet a staging buffer it keeps across reuse (pools allocate it once). */
    public void staging(MemorySegment buffer) {
        this.staging = buffer;
    }

    /** Takes {@code other}'s header fields (kind, ranks, ids, offsets, lengths, signature); not its payload. */
    public void headerFrom(Packet other) {
        kind = other.kind;
        source = other.source;
        target = other.target;
        matchBits = other.matchBits;
        sendId = other.sendId;
        recvId = other.recvId;
        offset = other.offset;
        messageLength = other.messageLength;
        signatureHash = other.signatureHash;
        signatureElements = other.signatureElements;
    }

    /** Forgets the header and payload window before reuse; the staging buffer stays. */
    public void clear() {
        kind = null;
        source = -1;
        target = -1;
        matchBits = 0;
        sendId = 0;
        recvId = 0;
        offset = 0;
        messageLength = 0;
        signatureHash = 0;
        signatureElements = -1;
        payload = null;
        payloadOffset = 0;
        payloadLength = 0;
        placed = false;
        owner = null;
    }

    @Override
    public String toString() {
        return kind + "[" + source + "->" + target + " bits=" + Long.toHexString(matchBits) + " send=" + sendId
                + " recv=" + recvId + " off=" + offset + " len=" + messageLength + " payload=" + payloadLength + "]";
    }
}
