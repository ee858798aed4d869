package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.fabric.Packet;

/**
 * What differs between backends: how bytes get from the user's send buffer into packets, and from
 * packets into the user's receive buffer, and what that costs. Everything else (matching, the
 * eager/rendezvous protocol, flow control, completion) is the {@link ProtocolCore}'s, the same
 * for every backend. Called by whichever thread drives the engine, one at a time.
 *
 * <p>A message's life on each side is bracketed by hooks, where a NIC sets up and tears down what
 * it keeps per message (a sPIN NIC's header and completion handlers, outbound set-up): on the send
 * side {@link #sendStarted}, then {@link #fill} per packet, then {@link #sendEnded}; on the receive
 * side {@link #receiveStarted} once the message has matched, then {@link #deliver} per packet, then
 * {@link #finish} or {@link #abandon}. The state a data path keeps per message lives in the
 * operation, typed: {@code SendOp<S>.state()}, {@code RecvOp<R>.state()}.
 *
 * @param <S> the data path's state per send
 * @param <R> the data path's state per receive
 */
public interface DataPath<S, R> {
    /**
     * A send was accepted and will put packets out (it is not called for a send refused at once,
     * say to a failed peer). Outbound set-up belongs here.
     */
    default void sendStarted(SendOp<S> send) {
    }

    /**
     * Fills {@code packet}'s payload window with bytes {@code [offset, offset + length)} of the
     * send's message: a window on the user's buffer (zero-copy) or bytes packed into the packet's
     * staging buffer.
     */
    void fill(SendOp<S> send, long offset, int length, Packet packet);

    /**
     * Packs bytes {@code [offset, offset + length)} of the send's message into the window the
     * fabric lent ({@link org.jspin.nic.fabric.Fabric#claim}: the packet's payload window), as
     * {@link #fill} would into a staging buffer. Only for sends whose bytes are packed
     * ({@link #sendsInPlace} false).
     *
     * @return false (the default) where this data path does not pack into lent memory; the engine
     *         then gives the window back and fills the packet as usual
     */
    default boolean fillLent(SendOp<S> send, long offset, int length, Packet packet) {
        return false;
    }

    /**
     * @return whether {@link #fill} shows this send's bytes in the user's buffer, in place, for any
     *         length (nothing packed, no staging buffer of a chunk's size): the engine may then send
     *         its data phase in fewer, larger packets ({@link org.jspin.nic.fabric.Fabric#preferredWholeData});
     *         false by default
     */
    default boolean sendsInPlace(SendOp<S> send) {
        return false;
    }

    /**
     * @return whether this send's first DATA chunk may be packed while the engine waits for the
     *         receiver's CTS (time the sending CPU would otherwise spend idle), so that the data phase
     *         opens with a write rather than a pack; false by default. The engine fills that packet
     *         from the offset the RTS's bytes end at; if the CTS asks for the data from another
     *         offset, or for none, the packet is {@link #released} unsent and the chunk packed again.
     */
    default boolean packsAhead(SendOp<S> send) {
        return false;
    }

    /**
     * A packet this data path filled has been released by the fabric (its staging is free again),
     * or was never sent (a chunk packed ahead that the CTS did not ask for).
     */
    void released(Packet packet);

    /** The send completed or failed; called once for every send, started or not. */
    default void sendEnded(SendOp<S> send) {
    }

    /**
     * The receive matched a message and will take {@link RecvOp#accepted()} &gt; 0 bytes of it (the
     * header handler's moment): the sender, the length and whether the bytes come from the overflow
     * buffer ({@link RecvOp#fromOverflow()}) are known. Exactly one of {@link #finish} and
     * {@link #abandon} follows.
     */
    default void receiveStarted(RecvOp<R> recv) {
    }

    /**
     * Where bytes {@code [offset, offset + length)} of the message may be written directly by the
     * fabric, if the receive holds them contiguously in native memory (see
     * {@link org.jspin.nic.fabric.PacketHandler#landing}); such a chunk is not {@link #deliver}ed.
     *
     * @return exactly that window of the receive's memory, or null (the default) to have it delivered
     */
    default MemorySegment landing(RecvOp<R> recv, long offset, int length) {
        return null;
    }

    /** Writes bytes {@code [offset, offset + length)} of the message, read from {@code src}, into the receive. */
    void deliver(RecvOp<R> recv, long offset, MemorySegment src, long srcOffset, long length);

    /** All the bytes the receive accepted have been delivered. */
    void finish(RecvOp<R> recv);

    /**
     * A receive ended early (error, cancel, dead peer): drop what the data path holds for it. May
     * come without {@link #receiveStarted} (a posted receive that never matched).
     */
    void abandon(RecvOp<R> recv);

    /** Frees what the data path holds (staging memory). */
    void close();
}
