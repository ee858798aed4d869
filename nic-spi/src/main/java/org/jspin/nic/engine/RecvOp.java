package org.jspin.nic.engine;

import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;

/**
 * The engine's state for one posted receive: the message it matched, the bytes it accepts and
 * how many have landed. Made on the caller's thread, then owned by the thread driving the engine.
 *
 * @param <R> what the {@link DataPath} keeps for the receive
 */
public final class RecvOp<R> {
    final MatchEntry entry;
    final long capacity;
    final long denseOffset;
    long id;
    /** World rank of the matched message's sender, or -1 before the match. */
    int source = -1;
    long messageBits;
    long messageBytes;
    /** The sender's operation id, for the CTS (rendezvous). */
    long peerSendId;
    /** Bytes the receive takes: the message, cut to the capacity. */
    long accepted;
    long delivered;
    /**
     * Bytes the RTS carries that are still arriving while the CTS is already due (matched as the
     * RTS's header arrived), landing in the receive's memory or to be delivered from a read buffer;
     * they count as {@link #delivered} once the RTS is in.
     */
    long landingWithRts;
    /** The message arrived before the receive and its bytes wait in the overflow buffer. */
    boolean fromOverflow;
    MpiException error;
    boolean done;
    private R state;

    RecvOp(MatchEntry entry) {
        this.entry = entry;
        this.capacity = entry.capacity();
        this.denseOffset = Layouts.denseOffset(entry.type(), entry.count(), entry.cursor().origin());
    }

    /** @return the match entry this operation carries out */
    public MatchEntry entry() {
        return entry;
    }

    /** @return bytes the receive takes from the matched message */
    public long accepted() {
        return accepted;
    }

    /** @return bytes of the matched message (more than {@link #accepted()} when it truncates) */
    public long messageBytes() {
        return messageBytes;
    }

    /** @return world rank of the matched message's sender, or -1 before the match */
    public int source() {
        return source;
    }

    /** @return the engine's id of this receive (unique per rank) */
    public long id() {
        return id;
    }

    /**
     * @return whether the message arrived unexpected and its bytes come from the overflow buffer
     *         (an eager message copied aside), not from the network
     */
    public boolean fromOverflow() {
        return fromOverflow;
    }

    /** @return offset of the receive's one contiguous run from the buffer's first byte (origin included), or -1 if it is not contiguous */
    public long denseOffset() {
        return denseOffset;
    }

    /** @return the data path's state for this receive (null until it sets one) */
    public R state() {
        return state;
    }

    /** Sets the data path's state for this receive. */
    public void state(R value) {
        this.state = value;
    }
}
