package org.jspin.nic.fabric;

import org.jspin.nic.NicConfig;

/**
 * One rank's endpoint on the fabric that moves packets between ranks, keeping each sender's order
 * to each receiver (the non-overtaking rule rests on it). Owned by the rank's progress thread:
 * {@link #send}, {@link #poll} and {@link #release} are called from it only.
 */
public interface Fabric extends AutoCloseable {
    /** @return this endpoint's world rank */
    int rank();

    /** @return ranks in the job */
    int size();

    /** @return the largest payload a packet may carry */
    int maxPayload();

    /**
     * @return whether the engine may keep an arrived packet unreleased for as long as it likes
     *         (an unexpected eager message's payload, until a receive takes it) without holding up
     *         the sender: true where arrived packets and their payloads are the receiver's own (a
     *         socket fabric's read buffers); false (the default) where an arrived packet is the
     *         sender's own object, handed over by reference
     */
    default boolean mayHoldArrivals() {
        return false;
    }

    /**
     * @return whether the receiving rank's CPU reads a sent packet's payload where the sender put it
     *         (the packet handed over by reference): by default, where an arrived packet is the
     *         sender's own object ({@link #mayHoldArrivals} false); not on a socket fabric, whose
     *         sending CPU copies the payload into the kernel. A data path may then pack a message
     *         aside and copy it into the packet, rather than pack straight into memory the other
     *         CPU has just read (see the host backend's {@code HostDataPath})
     */
    default boolean peersReadPayloadsInPlace() {
        return !mayHoldArrivals();
    }

    /**
     * @return how many bytes of a rendezvous message's start should travel with its RTS unless the
     *         NIC's settings say otherwise: worth it where a round trip costs more than copying
     *         those bytes once more (out of the packet into the receive, or aside when the receive
     *         is posted late); 0 (the default) sends the RTS alone. Where arrived packets are the
     *         sender's ({@link #mayHoldArrivals} false) the engine applies it to sends in place only:
     *         a receive posted late drops those bytes and asks for them again, which would cost a
     *         packed send a second pack
     */
    default int preferredRtsPayload() {
        return 0;
    }

    /**
     * @return up to how many bytes the data phase of a rendezvous message (what follows its RTS)
     *         should go as one DATA packet rather than in chunks, when the sender sends from its
     *         buffer in place (contiguous, nothing to pack): worth it where each packet costs the
     *         fabric a system call or a read of its own and there is no packing to overlap with
     *         the transfer; 0 (the default) always chunks. Capped at {@link #maxPayload}.
     */
    default int preferredWholeData() {
        return 0;
    }

    /**
     * @return the payload bytes per rendezvous data packet (and so per staging buffer) unless the
     *         NIC's settings say otherwise: a fabric whose packets each cost a system call or a
     *         frame header wants them larger, one whose packets are cheap wants packing and the
     *         transfer to overlap in smaller ones; {@link NicConfig#DEFAULT_CHUNK_SIZE} (256 KiB)
     *         by default. At most {@link #maxPayload}.
     */
    default int preferredChunkSize() {
        return NicConfig.DEFAULT_CHUNK_SIZE;
    }

    /**
     * @return up to how many bytes a message should go eagerly unless the NIC's settings say
     *         otherwise: where a round trip costs more than holding the bytes on the receiver until
     *         a receive takes them, a larger limit pays; {@link NicConfig#DEFAULT_EAGER_LIMIT}
     *         (16 KiB) by default
     */
    default int preferredEagerLimit() {
        return NicConfig.DEFAULT_EAGER_LIMIT;
    }

    /**
     * Lends a window of the fabric's own memory for {@code length} payload bytes of a packet to
     * {@code packet.target}, where the receiver will read them: a CPU that packs the payload there
     * saves the copy from a staging buffer into the fabric. On success the packet's payload window
     * ({@code payload}, {@code payloadOffset}, {@code payloadLength}) shows the lent memory; the
     * caller fills it and then, before it sends anything else, either {@link #send}s the packet
     * (which cannot be refused then) or gives the window back ({@link #abandon}).
     *
     * @return false (the default) where the fabric has no such memory, or no room now
     */
    default boolean claim(Packet packet, int length) {
        return false;
    }

    /** Gives back the window {@link #claim} lent for {@code packet}, unsent; its bytes are never delivered. */
    default void abandon(Packet packet) {
        throw new IllegalStateException("this fabric lends no memory, so there is nothing to give back");
    }

    /**
     * Sends a packet; the sender must not touch it (nor the user bytes its payload window shows)
     * until it comes back through {@link PacketHandler#onReleased}.
     *
     * @return false if the link is momentarily full: the caller keeps the packet and retries later
     */
    boolean send(Packet packet);

    /**
     * Hands the link what {@link #send} has accepted and held back: a fabric may hold large payloads
     * to write several in one system call. The protocol core calls it at the end of each round; a
     * fabric that holds packets also writes them at its next {@link #poll}, so a caller that only
     * sends and polls loses nothing. By default nothing is held.
     */
    default void flush() {
    }

    /**
     * Delivers pending arrivals and releases to {@code handler}.
     *
     * @return events delivered (at most {@code limit})
     */
    int poll(PacketHandler handler, int limit);

    /** The receiver is done with an inbound packet's payload. */
    void release(Packet packet);

    /** @return whether {@link #poll} has something to deliver (used before the progress thread parks) */
    boolean hasPending();

    /** Sets what the fabric runs, from any thread, when something arrives for this endpoint. */
    void onActivity(Runnable wakeup);

    /**
     * Whether this fabric moves data only while its owner polls it (its I/O runs inside
     * {@link #poll} and {@link #send} on the calling thread, as a socket fabric driven by the
     * waiting thread does). The progress thread of such a fabric, with nothing to do and no caller
     * driving, blocks in {@link #await} instead of parking, so arrivals still wake it.
     */
    default boolean pollDriven() {
        return false;
    }

    /**
     * Blocks the owning thread until something arrives, {@link #wakeup} is called, or
     * {@code nanos} pass; then handles what arrived, as {@link #poll} would before delivering it.
     * Only for {@link #pollDriven} fabrics.
     */
    default void await(long nanos) {
    }

    /** Ends an {@link #await} early; any thread, cheap when nobody awaits. */
    default void wakeup() {
    }

    /**
     * @return how many ranks of the job run on this host, this one included, where the fabric
     *         knows (1 where it does not): more ranks than CPUs means a waiting rank must not spin
     */
    default int ranksOnHost() {
        return 1;
    }

    /**
     * Whether arrivals wake only a caller blocked in {@link #await} (progress in the rank's own
     * calls, as the C MPIs make it on shared memory), while the progress thread polls now and then
     * without being woken: no thread of a computing rank is woken for each message. Only for
     * {@link #pollDriven} fabrics.
     */
    default boolean progressInCalls() {
        return false;
    }

    /** Leaves the fabric; peers see this endpoint as gone. */
    @Override
    void close();
}
