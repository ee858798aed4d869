package org.jspin.transport.shm;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspin.bootstrap.SecretProof;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;

/**
 * A record in a shm ring: a packet (its header, the payload behind it, the record's type its
 * kind's code) or a peer's hello (its rank and its proof of the job secret).
 *
 * <pre>
 * packet  0 source (int)  4 target (int)  8 match bits  16 send id  24 recv id  32 offset
 *        40 message length  48 signature hash  56 signature elements  64 payload ...
 * hello   0 source (int)  4 proof (32)
 * </pre>
 */
final class RingRecord {
    // Where each field of a packet's header starts: the table above, once.
    static final int SOURCE_AT = 0;
    static final int TARGET_AT = 4;
    static final int MATCH_BITS_AT = 8;
    static final int SEND_ID_AT = 16;
    static final int RECV_ID_AT = 24;
    static final int OFFSET_AT = 32;
    static final int MESSAGE_LENGTH_AT = 40;
    static final int SIGNATURE_HASH_AT = 48;
    static final int SIGNATURE_ELEMENTS_AT = 56;
    /** Bytes of a packet's header in its record. */
    static final int HEADER = 64;
    /** The record type of a peer's proof of the job secret (packets use {@link #code}). */
    static final int HELLO = 16;
    static final int HELLO_SOURCE_AT = 0;
    static final int HELLO_PROOF_AT = 4;
    static final int HELLO_BYTES = HELLO_PROOF_AT + SecretProof.BYTES;

    private RingRecord() {
    }

    /** @return the record type of a packet of {@code kind} */
    static int code(PacketKind kind) {
        return switch (kind) {
            case EAGER -> 1;
            case RTS -> 2;
            case CTS -> 3;
            case DATA -> 4;
            case CREDIT -> 5;
        };
    }

    /** @return the kind of a packet record of type {@code code}, or null if there is none */
    static PacketKind kind(int code) {
        return switch (code) {
            case 1 -> PacketKind.EAGER;
            case 2 -> PacketKind.RTS;
            case 3 -> PacketKind.CTS;
            case 4 -> PacketKind.DATA;
            case 5 -> PacketKind.CREDIT;
            default -> null;
        };
    }

    /** Writes {@code p}'s header into the record at {@code at}. */
    static void writeHeader(UnsafeBuffer b, int at, Packet p) {
        b.putInt(at + SOURCE_AT, p.source);
        b.putInt(at + TARGET_AT, p.target);
        b.putLong(at + MATCH_BITS_AT, p.matchBits);
        b.putLong(at + SEND_ID_AT, p.sendId);
        b.putLong(at + RECV_ID_AT, p.recvId);
        b.putLong(at + OFFSET_AT, p.offset);
        b.putLong(at + MESSAGE_LENGTH_AT, p.messageLength);
        b.putLong(at + SIGNATURE_HASH_AT, p.signatureHash);
        b.putLong(at + SIGNATURE_ELEMENTS_AT, p.signatureElements);
    }

    /** Reads into {@code p} the header fields of the record at {@code at} past the ranks (the reader checks those). */
    static void readHeader(DirectBuffer b, int at, Packet p) {
        p.matchBits = b.getLong(at + MATCH_BITS_AT);
        p.sendId = b.getLong(at + SEND_ID_AT);
        p.recvId = b.getLong(at + RECV_ID_AT);
        p.offset = b.getLong(at + OFFSET_AT);
        p.messageLength = b.getLong(at + MESSAGE_LENGTH_AT);
        p.signatureHash = b.getLong(at + SIGNATURE_HASH_AT);
        p.signatureElements = b.getLong(at + SIGNATURE_ELEMENTS_AT);
    }
}
