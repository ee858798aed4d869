package org.jspin.nic.engine;

import org.jspin.datatype.SignatureHash;
import org.jspin.datatype.Signatures;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Packet;

/**
 * The engine's state for one put: which protocol phase it is in and how many of its packets are
 * still out. Made on the caller's thread, then owned by the thread driving the engine.
 *
 * @param <S> what the {@link DataPath} keeps for the send
 */
public final class SendOp<S> {
    enum Phase { QUEUED, AWAITING_CTS, SENDING_DATA, DRAINING }

    final Put put;
    final long length;
    final long denseOffset;
    final long signatureHash;
    final long signatureElements;
    Phase phase = Phase.QUEUED;
    long id;
    long recvId;
    /** Bytes the receiver accepted (its capacity when it truncates). */
    long accepted;
    /** Bytes handed to the fabric (from the receiver's CTS on, counting those of the RTS it kept). */
    long sent;
    /** Payload bytes per DATA packet, set when the CTS arrives: the chunk size, or the whole data phase. */
    int dataPacket;
    /** Bytes of the message's start that travelled with the RTS. */
    long withRts;
    /** Packets sent and not yet released. */
    int packetsOut;
    /**
     * The first DATA chunk, packed while the CTS was awaited ({@link DataPath#packsAhead}); null if
     * none. Not counted in {@link #packetsOut} until it is sent.
     */
    Packet ahead;
    boolean done;
    private S state;

    SendOp(Put put) {
        this.put = put;
        this.length = put.length();
        this.denseOffset = Layouts.denseOffset(put.type(), put.count(), put.cursor().origin());
        if (SignatureHash.untyped(put.type())) {
            this.signatureHash = 0;
            this.signatureElements = -1;
        } else {
            this.signatureHash = SignatureHash.of(put.type(), put.count());
            this.signatureElements = Math.multiplyExact(put.count(), Signatures.basicElements(put.type()));
        }
    }

    /** @return the put this operation carries out */
    public Put put() {
        return put;
    }

    /** @return message bytes */
    public long length() {
        return length;
    }

    /** @return offset of the message's one contiguous run from the buffer's first byte (origin included), or -1 if it is not contiguous */
    public long denseOffset() {
        return denseOffset;
    }

    /** @return the engine's id of this send (unique per rank) */
    public long id() {
        return id;
    }

    /** @return the data path's state for this send (null until it sets one) */
    public S state() {
        return state;
    }

    /** Sets the data path's state for this send. */
    public void state(S value) {
        this.state = value;
    }
}
