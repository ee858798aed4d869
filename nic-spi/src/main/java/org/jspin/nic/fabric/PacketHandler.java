package org.jspin.nic.fabric;

import java.lang.foreign.MemorySegment;

/** What a fabric delivers to the engine that owns an endpoint, on that engine's progress thread. */
public interface PacketHandler {
    /**
     * Where the payload of an arriving packet may be written directly, asked when its header has
     * been read and before the packet is delivered (a fabric that reads payloads from a socket can
     * then read them straight into the receive's memory, one copy fewer). The packet is delivered
     * later, in order, marked {@link Packet#placed}. Called on the engine's driving thread.
     *
     * <p>For an RTS or an eager message the handler may match the message at once (and answer an
     * RTS before its payload is in), so a fabric asks for those only when every packet that
     * arrived before it has been delivered; for other kinds whenever it likes.
     *
     * @param header the packet's header fields (its payload fields are not set yet)
     * @return memory of exactly {@code header.payloadLength} bytes that stays valid until the packet
     *         has been delivered, or null (the default) to receive the payload in the fabric's memory
     */
    default MemorySegment landing(Packet header) {
        return null;
    }

    /** A packet arrived; the handler must {@link Fabric#release} it once it no longer needs its payload. */
    void onPacket(Packet packet);

    /** A packet this endpoint sent is no longer needed by the fabric or the receiver: it may be reused. */
    void onReleased(Packet packet);

    /** The connection to {@code rank} is gone; requests that depend on it must fail. */
    void onPeerFailed(int rank, String reason);
}
