package org.jspin.nic.fabric;

/** What a fabric delivers to the engine that owns an endpoint, on that engine's progress thread. */
public interface PacketHandler {
    /** A packet arrived; the handler must {@link Fabric#release} it once it no longer needs its payload. */
    void onPacket(Packet packet);

    /** A packet this endpoint sent is no longer needed by the fabric or the receiver: it may be reused. */
    void onReleased(Packet packet);

    /** The connection to {@code rank} is gone; requests that depend on it must fail. */
    void onPeerFailed(int rank, String reason);
}
