package org.jspin.transport.shm;

import java.lang.foreign.MemorySegment;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the records of this rank's ring to the engine as packets, their payloads in the ring's
 * own bytes: the engine releases each before it returns (an RTS carrying payload, which it may
 * hold, is copied aside first). A record that is not a proven peer's well-formed packet for this
 * rank fails its sender.
 */
final class RingReader implements MessageHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RingReader.class);
    /** A detached packet (an RTS's payload copied aside) belongs to no sender. */
    private static final Object DETACHED = new Object();

    private final int rank;
    /** Every rank's ring, indexed by rank; null for ranks on other hosts. */
    private final RingFile[] rings;
    private final MemorySegment inSegment;
    private final RingHellos hellos;
    private final Departures departures;
    /** The one packet records are read into; the engine gives it back before the next. */
    private final Packet inbound = new Packet();
    private boolean inboundOut;
    /** The engine's handler while a poll reads the ring. */
    PacketHandler handler;

    /** @param inSegment this rank's ring's memory, where payloads are */
    RingReader(int rank, RingFile[] rings, MemorySegment inSegment, RingHellos hellos, Departures departures) {
        this.rank = rank;
        this.rings = rings;
        this.inSegment = inSegment;
        this.hellos = hellos;
        this.departures = departures;
    }

    @Override
    public void onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
        if (type == RingRecord.HELLO) {
            hellos.received(buffer, index, length, handler, departures);
            return;
        }
        int source = length >= RingRecord.TARGET_AT ? buffer.getInt(index + RingRecord.SOURCE_AT) : -1;
        if (source < 0 || source >= rings.length || rings[source] == null) {
            LOG.error("rank {}: dropped a record of type {} and {} bytes naming no rank of the job on this host"
                    + " (source {})", rank, type, length, source);
            return;
        }
        if (departures.departed(source)) {
            return; // its sender was failed already
        }
        PacketKind kind = RingRecord.kind(type);
        String wrong = !hellos.proven(source) ? "a packet before proving the job secret"
                : length < RingRecord.HEADER ? "a record of " + length + " bytes, shorter than a packet's "
                        + RingRecord.HEADER + "-byte header"
                : kind == null ? "a record of unknown type " + type
                : buffer.getInt(index + RingRecord.TARGET_AT) != rank ? "a packet addressed to rank "
                        + buffer.getInt(index + RingRecord.TARGET_AT)
                : null;
        if (wrong != null) {
            departures.fail(handler, source, "rank " + source + " wrote " + wrong + " into rank " + rank + "'s ring");
            return;
        }
        Packet p = inbound;
        p.clear();
        p.kind = kind;
        p.source = source;
        p.target = rank;
        RingRecord.readHeader(buffer, index, p);
        p.payloadLength = length - RingRecord.HEADER;
        if (p.payloadLength > 0) {
            p.payload = inSegment;
            p.payloadOffset = index + RingRecord.HEADER;
        }
        if (kind == PacketKind.RTS && p.payloadLength > 0) {
            handler.onPacket(detached(p)); // the engine may hold an RTS's payload until its next round
            return;
        }
        inboundOut = true;
        handler.onPacket(p);
        if (inboundOut) {
            inboundOut = false;
            throw new IllegalStateException("rank " + rank + ": the engine kept " + p + " past its delivery, but"
                    + " its bytes are in the shm ring, which reuses them");
        }
    }

    /** The engine released {@code packet}: if it is the ring's, the next record may be read into it. */
    void released(Packet packet) {
        if (packet == inbound) {
            inboundOut = false;
        }
    }

    private static Packet detached(Packet p) {
        Packet d = new Packet();
        d.headerFrom(p);
        d.payload = MemorySegment.ofArray(new byte[p.payloadLength]);
        MemorySegment.copy(p.payload, p.payloadOffset, d.payload, 0, p.payloadLength);
        d.payloadLength = p.payloadLength;
        d.owner = DETACHED;
        return d;
    }
}
