package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;

import org.jspin.nic.fabric.Packet;

/**
 * What differs between backends: how bytes get from the user's send buffer into packets, and from
 * packets into the user's receive buffer, and what that costs. Everything else (matching, the
 * eager/rendezvous protocol, flow control, completion) is the {@link ProtocolEngine}'s, the same
 * for every backend. Called on the progress thread only.
 */
public interface DataPath {
    /**
     * Fills {@code packet}'s payload window with bytes {@code [offset, offset + length)} of the
     * send's message: a window on the user's buffer (zero-copy) or bytes packed into the packet's
     * staging buffer.
     */
    void fill(SendOp send, long offset, int length, Packet packet);

    /** A packet this data path filled has been released by the fabric (its staging is free again). */
    void released(Packet packet);

    /** Writes bytes {@code [offset, offset + length)} of the message, read from {@code src}, into the receive. */
    void deliver(RecvOp recv, long offset, MemorySegment src, long srcOffset, long length);

    /** All the bytes the receive accepted have been delivered. */
    void finish(RecvOp recv);

    /** A receive ended early (error, cancel, dead peer): drop what the data path holds for it. */
    void abandon(RecvOp recv);

    /** Frees what the data path holds (staging memory). */
    void close();
}
