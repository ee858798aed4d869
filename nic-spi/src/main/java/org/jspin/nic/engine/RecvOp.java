package org.jspin.nic.engine;

import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;

/**
 * The engine's state for one posted receive: the message it matched, the bytes it accepts and
 * how many have landed. Made on the caller's thread, then owned by the progress thread.
 */
public final class RecvOp {
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
    MpiException error;
    boolean done;
    /** Data-path state (the host path's whole-message staging buffer, say). */
    public Object pathState;

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

    /** @return offset of the receive's one contiguous run from the buffer's first byte (origin included), or -1 if it is not contiguous */
    public long denseOffset() {
        return denseOffset;
    }
}
